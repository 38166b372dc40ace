// Resize: argument checks, then the kernel (the output size rule, resize_fit():
// ops/geometry_shapes.cpp).
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "kernels/geometry/geometry_launch.hpp"
#include "common/op_checks.hpp"

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

}  // namespace gpufilter
