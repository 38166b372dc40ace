#include "cpu/geometry_cpu.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "cpu/opencv_image.hpp"
#include "cpu/pixel_moves.hpp"
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
  from_apart(src, dst, [&](const cv::Mat& in) { turn_pixels(in, out, QuarterTurn::Transpose); });
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
      case 1: turn_pixels(in, out, QuarterTurn::Clockwise); break;
      case 2: flip_pixels(in, out, -1); break;
      default: turn_pixels(in, out, QuarterTurn::CounterClockwise); break;
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
  from_apart(src, dst, [&](const cv::Mat& in) { flip_pixels(in, out, code); });
}

void resize(const ImageView& src, const ImageView& dst, ResizeFilter filter) {
  // OpenCV's area filter averages the covered pixels only where it shrinks both ways;
  // enlarging, it interpolates instead, so those run the reference.
  const bool area_enlarges = filter == ResizeFilter::Area && (dst.width > src.width || dst.height > src.height);
  if (src.format != dst.format || src.width <= 0 || src.height <= 0 || dst.width <= 0 || dst.height <= 0 ||
      area_enlarges) {
    reference::resize(src, dst, filter);  // its checks and messages, or the true area weights
    return;
  }
  int code = cv::INTER_LINEAR;
  switch (filter) {
    case ResizeFilter::Nearest: code = cv::INTER_NEAREST_EXACT; break;
    case ResizeFilter::Linear: code = cv::INTER_LINEAR; break;
    case ResizeFilter::Cubic: code = cv::INTER_CUBIC; break;
    case ResizeFilter::Area: code = cv::INTER_AREA; break;
    case ResizeFilter::Lanczos: code = cv::INTER_LANCZOS4; break;
  }
  cv::Mat out = destination(dst);
  // OpenCV's 8-bit linear, cubic and Lanczos weights are fixed point (11 bits), which
  // rounds 1 level off the exact value in about an eighth of the samples: those run in
  // float, rounded once at the end as the reference rounds.
  const bool through_float = src.format.type == ChannelType::U8 && filter != ResizeFilter::Nearest &&
                             filter != ResizeFilter::Area;
  from_apart(src, dst, [&](const cv::Mat& in) {
    if (!through_float) {
      cv::resize(in, out, out.size(), 0, 0, code);
      return;
    }
    cv::Mat in_float, out_float;
    in.convertTo(in_float, CV_MAKETYPE(CV_32F, in.channels()));
    cv::resize(in_float, out_float, out.size(), 0, 0, code);
    out_float.convertTo(out, out.type());
  });
}

}  // namespace gpufilter::cpu
