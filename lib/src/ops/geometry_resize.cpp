// Resize: argument checks and the output size rule; the kernel does the rest.
#include <algorithm>
#include <cmath>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "kernels/geometry/geometry_launch.hpp"
#include "ops/op_checks.hpp"

namespace gpufilter {

void resize(const ImageView& src, const ImageView& dst, ResizeFilter filter, const ExecContext& ctx) {
  resize(src, dst, filter, ResizeVariant::Fast, ctx);
}

void resize(const ImageView& src, const ImageView& dst, ResizeFilter filter, ResizeVariant variant,
            const ExecContext& ctx) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  if (dst.format != src.format)
    throw Error(ErrorCode::InvalidArgument, "resize: source is " + src.format.name() + " but destination is " +
                                                dst.format.name() + "; resize keeps the format");
  ops::check_pair("resize", src, src);  // alignment and the width limit, each view alone
  ops::check_pair("resize", dst, dst);
  ops::check_device_pair("resize", src, dst);
  ops::check_no_overlap("resize", src, dst);
  if (variant == ResizeVariant::Fast && filter == ResizeFilter::Area && kernels::launch_resize_half_area(src, dst, ctx))
    return;
  if (variant == ResizeVariant::Fast && filter == ResizeFilter::Linear &&
      (kernels::launch_resize_double_linear(src, dst, ctx) || kernels::launch_resize_linear_up(src, dst, ctx)))
    return;
  kernels::launch_resize(src, dst, filter, ctx);
}

Rect resize_fit(int src_width, int src_height, int width, int height, bool exact) {
  if (src_width <= 0 || src_height <= 0 || width <= 0 || height <= 0)
    throw Error(ErrorCode::InvalidArgument, "resize: sizes must be positive, got " + std::to_string(width) + "x" +
                                                std::to_string(height) + " for a " + std::to_string(src_width) + "x" +
                                                std::to_string(src_height) + " image");
  if (exact) return Rect{0, 0, width, height};
  // The side that limits the scale keeps the requested length exactly; the other is rounded.
  const double sx = static_cast<double>(width) / src_width, sy = static_cast<double>(height) / src_height;
  const auto scaled = [](int n, double s) { return static_cast<int>(std::max(1.0, std::round(n * s))); };
  if (sx <= sy) return Rect{0, 0, width, std::min(height, scaled(src_height, sx))};
  return Rect{0, 0, std::min(width, scaled(src_width, sy)), height};
}

}  // namespace gpufilter
