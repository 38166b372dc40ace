#include "channel_order.hpp"

#include <opencv2/imgproc.hpp>

namespace gpufilter::io {
namespace {

// Swapping the first and third channels is its own inverse.
void swap_red_and_blue(cv::Mat& image) {
  if (image.channels() == 3) cv::cvtColor(image, image, cv::COLOR_BGR2RGB);
  if (image.channels() == 4) cv::cvtColor(image, image, cv::COLOR_BGRA2RGBA);
}

}  // namespace

void to_library_order(cv::Mat& image) { swap_red_and_blue(image); }
void to_codec_order(cv::Mat& image) { swap_red_and_blue(image); }

}  // namespace gpufilter::io
