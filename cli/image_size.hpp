#pragma once
// A JPEG's size from its first start-of-frame segment, without decoding (a PNG's comes
// from png_header.hpp). Used to refuse an image over the pixel limit by name and size,
// before a decoder allocates for it.
#include <cstdint>
#include <filesystem>
#include <optional>

namespace gpufilter::cli {

struct HeaderSize {
  std::uint64_t width = 0;
  std::uint64_t height = 0;
};

// nullopt for other formats, or a header that cannot be read.
std::optional<HeaderSize> read_jpeg_size(const std::filesystem::path& path);

// OpenCV's own limit on decoded pixels (OPENCV_IO_MAX_IMAGE_PIXELS), which --max-pixels
// replaces.
inline constexpr std::uint64_t kDefaultMaxPixels = std::uint64_t{1} << 30;

// Sets the decoders' limits for --max-pixels; call before the codec module loads (OpenCV
// reads them once, when it is loaded).
void set_decoder_pixel_limit(std::uint64_t max_pixels);

}  // namespace gpufilter::cli
