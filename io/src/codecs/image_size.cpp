#include "gpufilter/io/image_size.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gpufilter::io {

void set_decoder_pixel_limit(std::uint64_t max_pixels) {
  // OpenCV's limits are size_t; "no limit" is the largest it takes.
  const std::string limit = std::to_string(max_pixels);
  ::setenv("OPENCV_IO_MAX_IMAGE_PIXELS", limit.c_str(), /*overwrite=*/1);
  // A side may be as long as the whole limit allows (a 1-row panorama), and never less
  // than OpenCV's own 2^20.
  const std::string side = std::to_string(max_pixels > (1u << 20) ? max_pixels : (1u << 20));
  ::setenv("OPENCV_IO_MAX_IMAGE_WIDTH", side.c_str(), 1);
  ::setenv("OPENCV_IO_MAX_IMAGE_HEIGHT", side.c_str(), 1);
}

std::uint64_t decoder_pixel_limit() {
  const char* text = std::getenv("OPENCV_IO_MAX_IMAGE_PIXELS");
  if (text == nullptr) return kDefaultMaxPixels;
  std::uint64_t limit = 0;
  const char* end = text + std::strlen(text);
  return std::from_chars(text, end, limit).ptr == end ? limit : kDefaultMaxPixels;
}

}  // namespace gpufilter::io
