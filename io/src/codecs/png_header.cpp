#include "codecs/png_header.hpp"

#include <array>
#include <cstring>
#include <fstream>

#include "files/host_memory.hpp"

namespace gpufilter::io {
namespace {

// The 8-byte signature, then the first chunk: length (4 bytes), "IHDR", then width and
// height (big-endian), bit depth, colour type, ...
constexpr std::array<unsigned char, 8> kSignature{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
constexpr std::size_t kHeaderBytes = 26;

std::uint32_t big_endian_32(const unsigned char* bytes) {
  return static_cast<std::uint32_t>(bytes[0]) << 24 | static_cast<std::uint32_t>(bytes[1]) << 16 |
         static_cast<std::uint32_t>(bytes[2]) << 8 | static_cast<std::uint32_t>(bytes[3]);
}

bool known_colour_type(unsigned char value) {
  return value == 0 || value == 2 || value == 3 || value == 4 || value == 6;
}

}  // namespace

std::uint64_t PngHeader::decoded_bytes() const {
  int channels = 1;
  switch (colour_type) {
    case PngColourType::Gray: channels = 1; break;
    case PngColourType::Rgb:
    case PngColourType::Palette: channels = 3; break;  // 4 with transparency: at least 3
    case PngColourType::GrayAlpha:
    case PngColourType::Rgba: channels = 4; break;
  }
  const std::uint64_t channel_bytes = bit_depth == 16 ? 2 : 1;
  return saturating_product({width, height, static_cast<std::uint64_t>(channels), channel_bytes});
}

std::optional<PngHeader> read_png_header(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::array<unsigned char, kHeaderBytes> bytes{};
  if (!file.read(reinterpret_cast<char*>(bytes.data()), bytes.size())) return std::nullopt;
  if (std::memcmp(bytes.data(), kSignature.data(), kSignature.size()) != 0) return std::nullopt;
  if (std::memcmp(bytes.data() + 12, "IHDR", 4) != 0 || !known_colour_type(bytes[25])) return std::nullopt;
  PngHeader header;
  header.width = big_endian_32(bytes.data() + 16);
  header.height = big_endian_32(bytes.data() + 20);
  header.bit_depth = bytes[24];
  header.colour_type = static_cast<PngColourType>(bytes[25]);
  return header;
}

}  // namespace gpufilter::io
