#include "gpufilter/io/flatten_alpha.hpp"

#include <opencv2/core.hpp>

#include <vector>

namespace gpufilter::io {

cv::Mat flatten_onto(const cv::Mat& bgra, const Background& background) {
  const double max = bgra.depth() == CV_16U ? 65535.0 : 255.0;
  cv::Mat alpha;
  std::vector<cv::Mat> channels;
  cv::split(bgra, channels);
  channels[3].convertTo(alpha, CV_64F, 1.0 / max);
  cv::Mat flat;
  std::vector<cv::Mat> out(3);
  for (int c = 0; c < 3; ++c) {
    cv::Mat value;
    channels[static_cast<std::size_t>(c)].convertTo(value, CV_64F);
    // OpenCV's channel c is B, G, R: the background's 2 - c.
    const double under = background.rgb[static_cast<std::size_t>(2 - c)] * max;
    cv::Mat blended = value.mul(alpha) + under * (1.0 - alpha);
    blended.convertTo(out[static_cast<std::size_t>(c)], bgra.depth());  // rounds and saturates
  }
  cv::merge(out, flat);
  return flat;
}

}  // namespace gpufilter::io
