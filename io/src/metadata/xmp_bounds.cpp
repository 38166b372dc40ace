#include "metadata/xmp_bounds.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace gpufilter::io {
namespace {

constexpr char kDeclaration[] = "xmlns:";
constexpr std::size_t kDeclarationSize = sizeof kDeclaration - 1;

// Counts declarations over pieces of one stream, a match running on from piece to piece.
// 'x' occurs once in "xmlns:", so a failed match restarts at an 'x' or not at all.
class DeclarationCounter {
 public:
  void feed(const unsigned char* data, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      const unsigned char byte = data[i];
      if (byte == 0) continue;
      if (byte == static_cast<unsigned char>(kDeclaration[matched_])) {
        if (++matched_ == kDeclarationSize) {
          ++count_;
          matched_ = 0;
        }
      } else {
        matched_ = byte == 'x' ? 1 : 0;
      }
    }
  }
  void feed(const std::string& text) { feed(reinterpret_cast<const unsigned char*>(text.data()), text.size()); }
  // Where one place that may hold XMP ends: no match spans two.
  void end_place() { matched_ = 0; }
  std::size_t count() const { return count_; }
  bool over() const { return count_ > kMaxXmpNamespaces; }

 private:
  std::size_t matched_ = 0;
  std::size_t count_ = 0;
};

std::string too_many_namespaces() {
  return "its XMP declares more than " + std::to_string(kMaxXmpNamespaces) +
         " namespaces (Exiv2's time to read them grows with their square)";
}

std::string packet_too_large(const char* what) {
  return std::string(what) + " that may hold XMP is larger than " + std::to_string(kMaxXmpPacketBytes >> 20) +
         " MiB (" + std::to_string(2 * (kMaxXmpPacketBytes >> 20)) + " MiB as hex)";
}

bool read_exactly(std::ifstream& file, void* into, std::size_t size) {
  file.read(static_cast<char*>(into), static_cast<std::streamsize>(size));
  return static_cast<std::size_t>(file.gcount()) == size;
}

std::uint32_t big_endian32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

// ---- JPEG: the APPn segments before the first scan, where Exiv2 stops reading ----------

void count_jpeg(std::ifstream& file, DeclarationCounter& counter) {
  std::vector<unsigned char> payload;
  for (;;) {
    int byte = file.get();
    if (byte != 0xFF) return;  // not a marker: Exiv2 stops too
    while (byte == 0xFF) byte = file.get();
    if (byte == std::char_traits<char>::eof() || byte == 0xDA || byte == 0xD9) return;  // SOS, EOI
    if (byte == 0x01 || (byte >= 0xD0 && byte <= 0xD7)) continue;                     // no length
    unsigned char length_bytes[2];
    if (!read_exactly(file, length_bytes, 2)) return;
    const std::size_t length = (std::size_t{length_bytes[0]} << 8) | length_bytes[1];
    if (length < 2) return;
    if (byte < 0xE0 || byte > 0xEF) {
      file.seekg(static_cast<std::streamoff>(length - 2), std::ios::cur);
      continue;
    }
    payload.resize(length - 2);
    if (!read_exactly(file, payload.data(), payload.size())) return;
    counter.feed(payload.data(), payload.size());
    counter.end_place();
    if (counter.over()) return;
  }
}

// ---- PNG: the text chunks Exiv2 decodes as XMP ----------------------------------------

// Inflates a zlib stream into `out`; false when it inflates to more than `limit` bytes.
// A damaged stream gives what came out before the damage (Exiv2 then fails on it).
bool inflate_bounded(const unsigned char* data, std::size_t size, std::size_t limit, std::string& out) {
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) return true;
  stream.next_in = const_cast<unsigned char*>(data);
  stream.avail_in = static_cast<uInt>(size);
  std::array<unsigned char, 1 << 16> piece;
  bool within = true;
  for (;;) {
    stream.next_out = piece.data();
    stream.avail_out = static_cast<uInt>(piece.size());
    const int status = inflate(&stream, Z_NO_FLUSH);
    const std::size_t made = piece.size() - stream.avail_out;
    if (out.size() + made > limit) {
      within = false;
      break;
    }
    out.append(reinterpret_cast<const char*>(piece.data()), made);
    if (status != Z_OK || (made == 0 && stream.avail_in == 0)) break;
  }
  inflateEnd(&stream);
  return within;
}

// The bytes an ImageMagick-style "Raw profile type xmp" text holds, decoded as Exiv2
// decodes them: a line with the type, a decimal length, then lower-case hex digits with
// anything else between them skipped.
std::string raw_profile_bytes(const std::string& text) {
  std::size_t at = 1;
  while (at < text.size() && text[at] != '\n') ++at;
  while (at < text.size() && (text[at] == '\0' || text[at] == ' ' || text[at] == '\n')) ++at;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  std::string bytes;
  int high = -1;
  for (; at < text.size() && bytes.size() < kMaxXmpPacketBytes; ++at) {
    const char c = text[at];
    const int nibble = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (nibble < 0) continue;
    if (high < 0) {
      high = nibble;
    } else {
      bytes.push_back(static_cast<char>((high << 4) | nibble));
      high = -1;
    }
  }
  return bytes;
}

// One text chunk's data (keyword first): its text counted, inflated where compressed and
// hex-decoded where a raw profile, as Exiv2 decodes it (a raw EXIF profile may hold XMP
// in its tag 700 too). "" or why it is beyond the bounds.
std::string count_png_text(const char* type, const std::vector<unsigned char>& data, DeclarationCounter& counter) {
  const auto nul = std::find(data.begin(), data.end(), 0);
  const std::string keyword(data.begin(), nul);
  std::size_t at = static_cast<std::size_t>(nul - data.begin()) + 1;
  bool compressed = std::strcmp(type, "zTXt") == 0;
  if (compressed) ++at;  // the compression method
  if (std::strcmp(type, "iTXt") == 0) {
    compressed = at < data.size() && data[at] != 0;
    at += 2;  // the compression flag and method
    for (int field = 0; field < 2; ++field) {  // the language tag and the translated keyword
      while (at < data.size() && data[at] != 0) ++at;
      ++at;
    }
  }
  if (at >= data.size()) return "";
  const unsigned char* text = data.data() + at;
  const std::size_t size = data.size() - at;
  const bool raw_profile = keyword.rfind("Raw profile type ", 0) == 0;
  std::string inflated;
  // A raw profile is hex, two characters a byte (and a short header).
  const std::size_t limit = raw_profile ? 2 * kMaxXmpPacketBytes + 64 : kMaxXmpPacketBytes;
  if (compressed && !inflate_bounded(text, size, limit, inflated)) return packet_too_large("a compressed PNG text chunk");
  if (raw_profile) {
    counter.feed(raw_profile_bytes(compressed ? inflated : std::string(reinterpret_cast<const char*>(text), size)));
  } else if (compressed) {
    counter.feed(inflated);
  } else {
    counter.feed(text, size);
  }
  return "";
}

bool is_text_chunk(const char* type) {
  return std::strcmp(type, "tEXt") == 0 || std::strcmp(type, "zTXt") == 0 || std::strcmp(type, "iTXt") == 0;
}

// Every chunk Exiv2 reads metadata from: the text chunks and eXIf (EXIF, whose tag 700
// may hold XMP).
std::string count_png(std::ifstream& file, DeclarationCounter& counter) {
  std::vector<unsigned char> data;
  for (;;) {
    unsigned char header[8];
    if (!read_exactly(file, header, sizeof header)) return "";
    const std::uint32_t length = big_endian32(header);
    char type[5] = {};
    std::memcpy(type, header + 4, 4);
    if (length > 0x7FFFFFFFu || std::strcmp(type, "IEND") == 0) return "";
    const bool text = is_text_chunk(type);
    if (!text && std::strcmp(type, "eXIf") != 0) {
      file.seekg(static_cast<std::streamoff>(length) + 4, std::ios::cur);  // data and CRC
      continue;
    }
    if (length > 2 * kMaxXmpPacketBytes + 64) return packet_too_large("a PNG metadata chunk");
    data.resize(length);
    if (!read_exactly(file, data.data(), data.size())) return "";
    file.seekg(4, std::ios::cur);  // the CRC (Exiv2 judges it)
    if (text) {
      if (std::string why = count_png_text(type, data, counter); !why.empty()) return why;
    } else {
      counter.feed(data.data(), data.size());
    }
    counter.end_place();
    if (counter.over()) return "";
  }
}

// ---- TIFF, WebP: the whole file ---------------------------------------------------------

void count_all(std::ifstream& file, DeclarationCounter& counter) {
  std::vector<unsigned char> buffer(1 << 20);
  while (!counter.over()) {
    file.read(reinterpret_cast<char*>(buffer.data()), static_cast<std::streamsize>(buffer.size()));
    const std::size_t got = static_cast<std::size_t>(file.gcount());
    if (got == 0) return;
    counter.feed(buffer.data(), got);
  }
}

}  // namespace

std::size_t count_xmp_namespace_declarations(const unsigned char* data, std::size_t size) {
  DeclarationCounter counter;
  counter.feed(data, size);
  return counter.count();
}

std::string xmp_bound_exceeded(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return "";
  unsigned char magic[12] = {};
  file.read(reinterpret_cast<char*>(magic), sizeof magic);
  const std::size_t got = static_cast<std::size_t>(file.gcount());
  file.clear();
  DeclarationCounter counter;
  static constexpr unsigned char kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  if (got >= 2 && magic[0] == 0xFF && magic[1] == 0xD8) {
    file.seekg(2);
    count_jpeg(file, counter);
  } else if (got >= 8 && std::memcmp(magic, kPng, 8) == 0) {
    file.seekg(8);
    if (std::string why = count_png(file, counter); !why.empty()) return why;
  } else if (got >= 4 && ((magic[0] == 'I' && magic[1] == 'I' && magic[2] == 42 && magic[3] == 0) ||
                          (magic[0] == 'M' && magic[1] == 'M' && magic[2] == 0 && magic[3] == 42))) {
    file.seekg(0);
    count_all(file, counter);
  } else if (got >= 12 && std::memcmp(magic, "RIFF", 4) == 0 && std::memcmp(magic + 8, "WEBP", 4) == 0) {
    file.seekg(0);
    count_all(file, counter);
  }
  return counter.over() ? too_many_namespaces() : "";
}

}  // namespace gpufilter::io
