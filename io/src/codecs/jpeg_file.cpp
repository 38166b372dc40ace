#include "gpufilter/io/jpeg_file.hpp"

#include <cstdio>
#include <memory>
#include <string>

#include "gpufilter/io/file_suffix.hpp"

namespace gpufilter::io {
namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// SOI and the whole segments after it up to and including the first scan's header,
// skipping nothing the parser needs but never reading the compressed data.
std::vector<unsigned char> header_bytes(std::FILE* file) {
  std::vector<unsigned char> bytes;
  if (std::fgetc(file) != 0xFF || std::fgetc(file) != 0xD8) return bytes;
  bytes = {0xFF, 0xD8};
  while (true) {
    int marker = std::fgetc(file);
    if (marker != 0xFF) return bytes;
    while (marker == 0xFF) marker = std::fgetc(file);  // fill bytes
    if (marker == EOF) return bytes;
    bytes.push_back(0xFF);
    bytes.push_back(static_cast<unsigned char>(marker));
    if (marker == 0xD9) return bytes;
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length
    const int high = std::fgetc(file), low = std::fgetc(file);
    if (high == EOF || low == EOF) return bytes;
    const std::size_t length = static_cast<std::size_t>((high << 8) | low);
    bytes.push_back(static_cast<unsigned char>(high));
    bytes.push_back(static_cast<unsigned char>(low));
    if (length < 2) return bytes;
    const std::size_t at = bytes.size();
    bytes.resize(at + length - 2);
    const std::size_t read = std::fread(bytes.data() + at, 1, length - 2, file);
    if (read != length - 2) {
      bytes.resize(at + read);
      return bytes;
    }
    if (marker == 0xDA) return bytes;  // the scan's header; its data follows
  }
}

}  // namespace

bool starts_like_jpeg(const std::filesystem::path& path) {
  const std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  unsigned char head[3] = {0, 0, 0};
  return file && std::fread(head, 1, 3, file.get()) == 3 && starts_like_jpeg(head, 3);
}

std::optional<std::vector<unsigned char>> read_jpeg_file(const std::filesystem::path& path) {
  const std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) return std::nullopt;
  unsigned char head[3] = {0, 0, 0};
  if (std::fread(head, 1, 3, file.get()) != 3 || !starts_like_jpeg(head, 3) || std::fseek(file.get(), 0, SEEK_END) != 0)
    return std::nullopt;
  const long size = std::ftell(file.get());
  if (size <= 0 || std::fseek(file.get(), 0, SEEK_SET) != 0) return std::nullopt;
  std::vector<unsigned char> bytes(static_cast<std::size_t>(size));
  if (std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size()) return std::nullopt;
  return bytes;
}

std::optional<JpegHeader> read_jpeg_header(const std::filesystem::path& path) {
  const std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) return std::nullopt;
  const std::vector<unsigned char> bytes = header_bytes(file.get());
  return parse_jpeg_header(bytes.data(), bytes.size());
}

}  // namespace gpufilter::io
