#include "cpu/geometry_cpu.hpp"

#include <opencv2/core.hpp>

#include "cpu/opencv_image.hpp"
#include "gpufilter/reference.hpp"
#include "reference/overlap_copy.hpp"

namespace gpufilter::cpu {
namespace {

// OpenCV writes into `dst`'s own memory: the header already has the size and type it
// would create.
cv::Mat destination(const ImageView& dst) { return as_mat(dst); }

// `src` as a cv::Mat that `dst` does not overlap: the view itself, or a packed copy.
template <class Run>
void from_apart(const ImageView& src, const ImageView& dst, const Run& run) {
  if (!reference::may_overlap(src, dst)) {
    run(as_mat(src));
    return;
  }
  const reference::PackedCopy copy(src);
  run(as_mat(copy.view()));
}

}  // namespace

void transpose(const ImageView& src, const ImageView& dst) {
  if (src.width != dst.height || src.height != dst.width || src.format != dst.format) {
    reference::transpose(src, dst);  // its checks and messages
    return;
  }
  cv::Mat out = destination(dst);
  from_apart(src, dst, [&](const cv::Mat& in) { cv::transpose(in, out); });
}

void rotate_quarter_turns(const ImageView& src, const ImageView& dst, int degrees) {
  const int turns = ((degrees / 90) % 4 + 4) % 4;
  const bool swaps = turns % 2 != 0;
  const bool fits = (swaps ? src.width == dst.height && src.height == dst.width
                           : src.width == dst.width && src.height == dst.height) &&
                    src.format == dst.format;
  if (!fits || degrees % 90 != 0) {
    reference::rotate_quarter_turns(src, dst, degrees);
    return;
  }
  cv::Mat out = destination(dst);
  from_apart(src, dst, [&](const cv::Mat& in) {
    switch (turns) {
      case 0: in.copyTo(out); break;
      case 1: cv::rotate(in, out, cv::ROTATE_90_CLOCKWISE); break;
      case 2: cv::flip(in, out, -1); break;
      default: cv::rotate(in, out, cv::ROTATE_90_COUNTERCLOCKWISE); break;
    }
  });
}

void flip(const ImageView& src, const ImageView& dst, FlipAxis axis) {
  if (src.width != dst.width || src.height != dst.height || src.format != dst.format) {
    reference::flip(src, dst, axis);
    return;
  }
  cv::Mat out = destination(dst);
  const int code = axis == FlipAxis::Horizontal ? 1 : axis == FlipAxis::Vertical ? 0 : -1;
  from_apart(src, dst, [&](const cv::Mat& in) { cv::flip(in, out, code); });
}

}  // namespace gpufilter::cpu
