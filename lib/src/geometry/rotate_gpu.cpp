// Rotation by any angle (bilinear): the affine map from output to source pixels and the
// fill colour in the format's units (the output size: ops/geometry_shapes.cpp).
#include <cmath>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "kernels/geometry/geometry_launch.hpp"
#include "kernels/geometry/rotate_map.hpp"
#include "common/op_checks.hpp"

namespace gpufilter {

void rotate(const ImageView& src, const ImageView& dst, double angle_degrees, const std::array<double, 4>& fill,
            const ExecContext& ctx) {
  // The fastest measured per pixel size (docs/techniques/transpose.md, docs/gpu-results.md#geometry;
  // the tiled kernels skip the edge arithmetic for pixels wholly inside or outside the
  // source): `tiled` for 1-, 2-, 4-, 8-, 12- and 16-byte pixels, the one-pixel-per-thread
  // kernel for 3- and 6-byte pixels.
  const bool three_channels = src.format.channels == 3;
  rotate(src, dst, angle_degrees, fill, three_channels ? RotateVariant::Direct : RotateVariant::Tiled, ctx);
}

void rotate(const ImageView& src, const ImageView& dst, double angle_degrees, const std::array<double, 4>& fill,
            RotateVariant variant, const ExecContext& ctx) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  if (!std::isfinite(angle_degrees))
    throw Error(ErrorCode::InvalidArgument, "rotate: the angle must be a finite number of degrees");
  if (dst.format != src.format)
    throw Error(ErrorCode::InvalidArgument, "rotate: source is " + src.format.name() + " but destination is " +
                                                dst.format.name() + "; rotate keeps the format");
  ops::check_pair("rotate", src, src);
  ops::check_pair("rotate", dst, dst);
  ops::check_device_pair("rotate", src, dst);
  ops::check_no_overlap("rotate", src, dst);
  double inverse[6];
  kernels::rotation_inverse_map(src.width, src.height, dst.width, dst.height, angle_degrees, inverse);
  const Border representable = ops::representable_border(Border{BorderMode::Constant, fill}, src.format);
  const double* colour = representable.value.data();
  // The tiled kernel declines outputs too tall for its grid: the direct one runs them.
  if (variant == RotateVariant::Tiled && kernels::launch_rotate_bilinear_tiled(src, dst, inverse, colour, ctx)) return;
  kernels::launch_rotate_bilinear(src, dst, inverse, colour, ctx);
}

}  // namespace gpufilter
