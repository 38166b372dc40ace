#pragma once
/// @file
/// The decoders' pixel limit (--max-pixels). An image's size comes from its header
/// before decoding: png_header.hpp, jpeg_file.hpp.
#include <cstdint>

namespace gpufilter::io {

/// OpenCV's own limit on decoded pixels (OPENCV_IO_MAX_IMAGE_PIXELS), which --max-pixels
/// replaces.
inline constexpr std::uint64_t kDefaultMaxPixels = std::uint64_t{1} << 30;

/// Sets the decoders' limits for --max-pixels; call before the codec module loads (OpenCV
/// reads them once, when it is loaded).
void set_decoder_pixel_limit(std::uint64_t max_pixels);

/// The limit set last (OpenCV's default where none was): what the tool's own decoders keep to.
std::uint64_t decoder_pixel_limit();

}  // namespace gpufilter::io
