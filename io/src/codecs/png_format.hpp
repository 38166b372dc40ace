#pragma once
// The pieces of the PNG file format that the reader and the writer share.
#include <array>
#include <cstdint>

namespace gpufilter::io::png {

inline constexpr std::array<std::uint8_t, 8> kSignature{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
// IHDR's colour types this codec handles (palettes go to OpenCV's reader).
inline constexpr std::uint8_t kColourGray = 0;
inline constexpr std::uint8_t kColourRgb = 2;
inline constexpr std::uint8_t kColourGrayAlpha = 4;
inline constexpr std::uint8_t kColourRgba = 6;
// A chunk's length field may not exceed 2^31 - 1.
inline constexpr std::uint32_t kMaxChunkLength = 0x7fffffffu;

inline std::uint32_t load_big_endian_32(const std::uint8_t* bytes) {
  return static_cast<std::uint32_t>(bytes[0]) << 24 | static_cast<std::uint32_t>(bytes[1]) << 16 |
         static_cast<std::uint32_t>(bytes[2]) << 8 | static_cast<std::uint32_t>(bytes[3]);
}

inline void store_big_endian_32(std::uint32_t value, std::uint8_t* bytes) {
  bytes[0] = static_cast<std::uint8_t>(value >> 24);
  bytes[1] = static_cast<std::uint8_t>(value >> 16);
  bytes[2] = static_cast<std::uint8_t>(value >> 8);
  bytes[3] = static_cast<std::uint8_t>(value);
}

}  // namespace gpufilter::io::png
