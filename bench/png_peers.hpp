#pragma once
// The PNG encoders a user would pick instead of the tool's own (cli/png_writer): libpng
// and libspng from the distribution, each on one thread, with all five row filters chosen
// adaptively and the given zlib level and strategy, so bench/png_codec can set them beside
// the tool's settings. An encoder the build did not find returns nothing.
#include <cstdint>
#include <vector>

#include <opencv2/core/mat.hpp>

namespace gpufilter::bench {

bool have_libpng();
bool have_libspng();

// The PNG file of an 8-bit gray, BGR or BGRA image; empty for other images or where the
// library is missing. Throws std::runtime_error when the library reports an error.
std::vector<std::uint8_t> libpng_encode(const cv::Mat& image, int level, int strategy);
std::vector<std::uint8_t> libspng_encode(const cv::Mat& image, int level, int strategy);

}  // namespace gpufilter::bench
