#pragma once
/// @file
/// Pixel formats: a channel type (u8, u16, f32) times 1, 3 or 4 interleaved channels.
/// Nothing here touches a GPU; only parse_pixel_format() throws.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpufilter {

/// The type of one channel sample: 8- or 16-bit unsigned integer, or 32-bit float.
enum class ChannelType { U8, U16, F32 };

/// A channel type and a count of interleaved channels (1, 3 or 4).
struct PixelFormat {
  ChannelType type = ChannelType::U8;  ///< the type of every channel
  int channels = 1;                    ///< 1, 3 or 4, interleaved

  /// Bytes of one channel sample: 1, 2 or 4.
  std::size_t channel_bytes() const;
  /// Bytes of one pixel: channel_bytes() times channels.
  std::size_t pixel_bytes() const { return channel_bytes() * static_cast<std::size_t>(channels); }
  /// Largest value a channel holds: 255, 65535, or 1.0 for float images (by convention).
  double max_value() const;
  std::string name() const;  ///< "u8x3"

};

/// Same channel type and count.
inline bool operator==(const PixelFormat& a, const PixelFormat& b) {
  return a.type == b.type && a.channels == b.channels;
}
/// Another channel type or count.
inline bool operator!=(const PixelFormat& a, const PixelFormat& b) { return !(a == b); }

/// Every format the library knows: u8/u16/f32 x 1/3/4 channels.
const std::vector<PixelFormat>& all_pixel_formats();
/// Parses "u8x3"; throws Error(InvalidArgument) on anything else.
PixelFormat parse_pixel_format(const std::string& text);
/// "u8", "u16" or "f32"; does not throw.
const char* to_string(ChannelType type);

}  // namespace gpufilter
