#include "gpufilter/io/image_size.hpp"

#include <cstdlib>
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

}  // namespace gpufilter::io
