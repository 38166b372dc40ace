#pragma once
// The few facts the tool needs from a PNG file's header (its IHDR chunk), read before
// OpenCV decodes the file: the size, to refuse an image that cannot fit in memory before
// allocating it, and the colour type, which OpenCV's decoder does not report (it reads a
// gray+alpha PNG as 4-channel BGRA).
#include <cstdint>
#include <filesystem>
#include <optional>

namespace gpufilter::io {

enum class PngColourType : std::uint8_t {
  Gray = 0,
  Rgb = 2,
  Palette = 3,
  GrayAlpha = 4,
  Rgba = 6,
};

struct PngHeader {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  int bit_depth = 0;  // bits per channel (per index for Palette): 1, 2, 4, 8 or 16
  PngColourType colour_type = PngColourType::Gray;

  // Bytes of the image as OpenCV decodes it with IMREAD_UNCHANGED: gray+alpha and
  // palettes with transparency expand to 4 channels, depths below 8 bits to 8.
  std::uint64_t decoded_bytes() const;
};

// The header of the PNG file at `path`; nullopt when it is not a PNG (or unreadable,
// which the decoder then reports).
std::optional<PngHeader> read_png_header(const std::filesystem::path& path);

}  // namespace gpufilter::io
