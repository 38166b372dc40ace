#include "codecs/channel_order.hpp"

#include <cstdint>
#include <utility>

#include <opencv2/core.hpp>

namespace gpufilter::io {
namespace {

template <class T>
void swap_first_and_third(cv::Mat& image) {
  const int channels = image.channels();
  const int width = image.cols;
  cv::parallel_for_(cv::Range(0, image.rows), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      T* p = image.ptr<T>(y);
      for (int x = 0; x < width; ++x, p += channels) std::swap(p[0], p[2]);
    }
  });
}

// Swapping the first and third channels is its own inverse. In place, on all cores:
// cvtColor with the same Mat as source and destination copies the image first, into fresh
// pages (docs/cpu-path.md, "Start-up, libraries and pages").
void swap_red_and_blue(cv::Mat& image) {
  if (image.channels() != 3 && image.channels() != 4) return;
  switch (image.elemSize1()) {
    case 1: swap_first_and_third<std::uint8_t>(image); break;
    case 2: swap_first_and_third<std::uint16_t>(image); break;
    case 4: swap_first_and_third<std::uint32_t>(image); break;
    default: swap_first_and_third<std::uint64_t>(image); break;
  }
}

}  // namespace

void to_library_order(cv::Mat& image) { swap_red_and_blue(image); }
void to_codec_order(cv::Mat& image) { swap_red_and_blue(image); }

}  // namespace gpufilter::io
