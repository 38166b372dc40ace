#include "geometry/geometry_cpu.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/opencv_image.hpp"
#include "geometry/pixel_moves.hpp"
#include "geometry/resize_cpu.hpp"
#include "gpufilter/reference.hpp"
#include "common/overlap_copy.hpp"

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
  // enlarging, it interpolates instead, so those run the reference. (The reference's taps
  // in float would not do: enlarging by 1.5 makes exact half-level ties in a tenth of the
  // samples, which float and double round either way.)
  const bool area_enlarges = filter == ResizeFilter::Area && (dst.width > src.width || dst.height > src.height);
  if (src.format != dst.format || src.width <= 0 || src.height <= 0 || dst.width <= 0 || dst.height <= 0 ||
      area_enlarges) {
    reference::resize(src, dst, filter);  // its checks and messages, or the true area weights
    return;
  }
  int code = cv::INTER_LINEAR;
  switch (filter) {
    case ResizeFilter::Nearest: code = cv::INTER_NEAREST; break;  // not taken: see own_taps
    case ResizeFilter::Linear: code = cv::INTER_LINEAR; break;
    case ResizeFilter::Cubic: code = cv::INTER_CUBIC; break;
    case ResizeFilter::Area: code = cv::INTER_AREA; break;
    case ResizeFilter::Lanczos: code = cv::INTER_LANCZOS4; break;
  }
  // Where OpenCV's resize leaves the reference's result, the reference's taps in float
  // (resize_cpu.hpp), rounded once at the end as the reference rounds:
  //  * 8-bit linear, cubic and Lanczos: OpenCV's weights are fixed point (11 bits), 1
  //    level off the exact value in about an eighth of the samples;
  //  * integer area by whole factors both ways, and linear by exactly 2 (which OpenCV
  //    turns into area): OpenCV sums the integers and rounds halves up, where the
  //    reference rounds them to even (1 level off in an eighth of the samples at 2x);
  //  * nearest: OpenCV's nearest pixel (INTER_NEAREST_EXACT) comes from a 16-bit
  //    fixed-point position and misses the reference's at a fifth of the columns at
  //    some scales (0.5, 1.5).
  const bool integer = src.format.type != ChannelType::F32;
  const bool whole_shrink = src.width % dst.width == 0 && src.height % dst.height == 0;
  const bool halves = src.width == 2 * dst.width && src.height == 2 * dst.height;
  const bool own_taps = filter == ResizeFilter::Nearest ||
                        (src.format.type == ChannelType::U8 && filter != ResizeFilter::Area) ||
                        (integer && filter == ResizeFilter::Area && whole_shrink) ||
                        (integer && filter == ResizeFilter::Linear && halves);
  cv::Mat out = destination(dst);
  from_apart(src, dst, [&](const cv::Mat& in) {
    if (own_taps)
      resample(in, out, filter);
    else
      cv::resize(in, out, out.size(), 0, 0, code);
  });
}

}  // namespace gpufilter::cpu
