#include "codecs/written_metadata_mends.hpp"

#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace gpufilter::io {
namespace {

std::uint32_t little_u32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
std::uint32_t big_u32(const unsigned char* p) {
  return (static_cast<std::uint32_t>(p[0]) << 24) | (static_cast<std::uint32_t>(p[1]) << 16) |
         (static_cast<std::uint32_t>(p[2]) << 8) | static_cast<std::uint32_t>(p[3]);
}
void put_big_u32(unsigned char* p, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(value >> (24 - 8 * i));
}

}  // namespace

void fix_webp_icc_chunk_name(std::vector<unsigned char>& webp) {
  constexpr std::size_t kFirstChunk = 12;  // "RIFF", size, "WEBP"
  for (std::size_t at = kFirstChunk; at + 8 <= webp.size();) {
    const std::size_t size = little_u32(webp.data() + at + 4);
    if (at != kFirstChunk && std::memcmp(webp.data() + at, "VP8X", 4) == 0) std::memcpy(webp.data() + at, "ICCP", 4);
    at += 8 + size + (size & 1);
  }
}

void name_png_icc_profile(std::vector<unsigned char>& png) {
  constexpr std::size_t kFirstChunk = 8;  // the signature
  static const std::string kName = "ICC Profile";
  for (std::size_t at = kFirstChunk; at + 12 <= png.size();) {
    const std::size_t length = big_u32(png.data() + at);
    if (at + 12 + length > png.size()) return;
    const unsigned char* type = png.data() + at + 4;
    if (std::memcmp(type, "iCCP", 4) == 0 && length > 0 && type[4] == 0) {
      // Length, type, the name before the data's terminating zero, the data, a new CRC.
      std::vector<unsigned char> chunk(12 + length + kName.size());
      put_big_u32(chunk.data(), static_cast<std::uint32_t>(length + kName.size()));
      std::memcpy(chunk.data() + 4, "iCCP", 4);
      std::memcpy(chunk.data() + 8, kName.data(), kName.size());
      std::memcpy(chunk.data() + 8 + kName.size(), type + 4, length);
      const std::size_t covered = 4 + kName.size() + length;  // type and data
      put_big_u32(chunk.data() + 4 + covered,
                  static_cast<std::uint32_t>(crc32(0L, chunk.data() + 4, static_cast<uInt>(covered))));
      const auto begin = png.begin() + static_cast<std::ptrdiff_t>(at);
      png.erase(begin, begin + static_cast<std::ptrdiff_t>(12 + length));
      png.insert(png.begin() + static_cast<std::ptrdiff_t>(at), chunk.begin(), chunk.end());
      return;
    }
    at += 12 + length;
  }
}

}  // namespace gpufilter::io
