// The geometry ops' GPU side: transpose, rotate, flip, crop and resize, each from the
// registry's values to the library's entry point with the variant named.
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "gpufilter/ops.hpp"
#include "geometry/geometry_variants.hpp"
#include "common/operations.hpp"

namespace gpufilter {
namespace {

using ops::fill_of, ops::is_quarter_turn, ops::is_rotate_variant_name, ops::quarter_turn_angle,
    ops::resize_filter_for, ops::transpose_options;

void run_transpose(const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&,
                   const std::string& variant, const ExecContext& ctx) {
  transpose(src, dst, transpose_options(values, variant), ctx);
}

void run_rotate(const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&,
                const std::string& variant, const ExecContext& ctx) {
  const bool bilinear = is_rotate_variant_name(variant);
  // An unknown variant fails here, before any launch.
  const TransposeOptions options =
      bilinear ? TransposeOptions{TransposeOptions{}.variant, block_shape_from_name(values.text("block"))}
               : transpose_options(values, variant);
  const double angle = values.number("angle");
  if (is_quarter_turn(angle))
    rotate_quarter_turns(src, dst, quarter_turn_angle(values), options, ctx);
  else if (bilinear)
    rotate(src, dst, angle, fill_of(values), rotate_variant_from_name(variant), ctx);
  else
    rotate(src, dst, angle, fill_of(values), ctx);  // the library's default kernel
}

void run_flip(const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&,
              const std::string& variant, const ExecContext& ctx) {
  flip(src, dst, flip_axis_from_name(values.text("axis")), flip_variant_from_name(variant), ctx);
}

void run_crop(const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&,
              const std::string& variant, const ExecContext& ctx) {
  if (variant != "view") throw Error(ErrorCode::InvalidArgument, "crop: unknown variant '" + variant + "'; use view");
  copy(crop(src, parse_geometry(values.text("geometry"))), dst, CopyVariant::Vectorized, ctx);
}

void run_resize(const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&,
                const std::string& variant, const ExecContext& ctx) {
  resize(src, dst, resize_filter_for(src, dst, values), resize_variant_from_name(variant), ctx);
}

void bind_transpose(Operation& op) { op.run_gpu = run_transpose; }
void bind_rotate(Operation& op) { op.run_gpu = run_rotate; }
void bind_flip(Operation& op) { op.run_gpu = run_flip; }
void bind_crop(Operation& op) { op.run_gpu = run_crop; }
void bind_resize(Operation& op) { op.run_gpu = run_resize; }

GPUFILTER_BIND_GPU("transpose", bind_transpose);
GPUFILTER_BIND_GPU("rotate", bind_rotate);
GPUFILTER_BIND_GPU("flip", bind_flip);
GPUFILTER_BIND_GPU("crop", bind_crop);
GPUFILTER_BIND_GPU("resize", bind_resize);

}  // namespace
}  // namespace gpufilter
