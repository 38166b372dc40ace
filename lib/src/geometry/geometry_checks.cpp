#include "geometry/geometry_checks.hpp"

#include <string>

#include "gpufilter/error.hpp"
#include "common/op_checks.hpp"

namespace gpufilter::ops {

void check_reshaping_pair(const char* op, const ImageView& src, const ImageView& dst, int out_width, int out_height) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  const auto shape = [](int w, int h, PixelFormat f) { return std::to_string(w) + "x" + std::to_string(h) + " " + f.name(); };
  if (dst.width != out_width || dst.height != out_height || dst.format != src.format)
    throw Error(ErrorCode::InvalidArgument, std::string(op) + ": the output of a " +
                                                shape(src.width, src.height, src.format) + " source is " +
                                                shape(out_width, out_height, src.format) + ", but destination is " +
                                                shape(dst.width, dst.height, dst.format));
  // check_pair on each view alone: alignment and the width limit (dst's width may be
  // src's height).
  check_pair(op, src, src);
  check_pair(op, dst, dst);
  check_device_pair(op, src, dst);
  check_no_overlap(op, src, dst);
}

}  // namespace gpufilter::ops
