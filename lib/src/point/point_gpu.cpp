// The point ops' library entry points: views checked, parameters turned into the
// kernels' PointFunction (u8 tables computed here in double precision), one launch. And
// the point ops' GPU side.
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/point_ops.hpp"
#include "kernels/point/point_launch.hpp"
#include "common/op_checks.hpp"
#include "common/operations.hpp"
#include "point/point_functions.hpp"
#include "point/point_variants.hpp"
#include "throw_invalid.hpp"

namespace gpufilter {
namespace {

void launch(const kernels::PointPlanes& planes, const kernels::PointFunction& function, PointVariant variant,
            const ExecContext& ctx) {
  if (variant == PointVariant::Scalar) kernels::launch_point_scalar(planes, function, ctx);
  else kernels::launch_point_vectorized(planes, function, ctx);
}

void run_interleaved(const char* op, const ImageView& src, const ImageView& dst,
                     const kernels::PointFunction& function, PointChannels channels, PointVariant variant,
                     const ExecContext& ctx) {
  ops::check_pair(op, src, dst);
  ops::check_device_pair(op, src, dst);
  ops::check_no_overlap(op, src, dst);
  kernels::PointPlanes planes;
  planes.src[0] = src.data;
  planes.dst[0] = dst.data;
  planes.mask[0] = channels.mask_for(src.format.channels);
  planes.count = 1;
  planes.width = src.width;
  planes.height = src.height;
  planes.src_pitch = src.pitch;
  planes.dst_pitch = dst.pitch;
  planes.format = src.format;
  launch(planes, function, variant, ctx);
}

void run_planar(const char* op, const PlanarView& src, const PlanarView& dst, const kernels::PointFunction& function,
                PointChannels channels, PointVariant variant, const ExecContext& ctx) {
  if (src.channels != dst.channels || (src.channels != 1 && src.channels != 3 && src.channels != 4))
    throw_invalid(std::string(op) + ": planar images need 1, 3 or 4 planes, the same on both sides; got " +
                  std::to_string(src.channels) + " and " + std::to_string(dst.channels));
  if (src.pitch == 0 || dst.pitch == 0) throw_invalid(std::string(op) + ": planar images need a pitch");
  kernels::PointPlanes planes;
  const unsigned mask = channels.mask_for(src.channels);
  for (int p = 0; p < src.channels; ++p) {
    const ImageView s = src.plane(p), d = dst.plane(p);
    ops::check_pair(op, s, d);
    ops::check_device_pair(op, s, d);
    for (int q = 0; q < src.channels; ++q) ops::check_no_overlap(op, s, dst.plane(q));
    planes.src[p] = s.data;
    planes.dst[p] = d.data;
    planes.mask[p] = (mask >> p) & 1u;
  }
  planes.count = src.channels;
  planes.width = src.width;
  planes.height = src.height;
  planes.src_pitch = src.pitch;
  planes.dst_pitch = dst.pitch;
  planes.format = PixelFormat{src.type, 1};
  launch(planes, function, variant, ctx);
}

}  // namespace

void invert(const ImageView& src, const ImageView& dst, PointChannels channels, PointVariant variant,
            const ExecContext& ctx) {
  run_interleaved("invert", src, dst, ops::invert_function(), channels, variant, ctx);
}
void brightness(const ImageView& src, const ImageView& dst, const BrightnessParams& params, PointVariant variant,
                const ExecContext& ctx) {
  validate(params);
  run_interleaved("brightness", src, dst, ops::brightness_function(params, src.format.type), params.channels, variant,
                  ctx);
}
void contrast(const ImageView& src, const ImageView& dst, const ContrastParams& params, PointVariant variant,
              const ExecContext& ctx) {
  validate(params);
  run_interleaved("contrast", src, dst, ops::contrast_function(params, src.format.type), params.channels, variant,
                  ctx);
}
void gamma(const ImageView& src, const ImageView& dst, const GammaParams& params, PointVariant variant,
           const ExecContext& ctx) {
  validate(params);
  run_interleaved("gamma", src, dst, ops::gamma_function(params, src.format.type), params.channels, variant, ctx);
}
void levels(const ImageView& src, const ImageView& dst, const LevelsParams& params, PointVariant variant,
            const ExecContext& ctx) {
  validate(params);
  run_interleaved("levels", src, dst, ops::levels_function(params, src.format.type), params.channels, variant, ctx);
}

void invert(const PlanarView& src, const PlanarView& dst, PointChannels channels, PointVariant variant,
            const ExecContext& ctx) {
  run_planar("invert", src, dst, ops::invert_function(), channels, variant, ctx);
}
void brightness(const PlanarView& src, const PlanarView& dst, const BrightnessParams& params, PointVariant variant,
                const ExecContext& ctx) {
  validate(params);
  run_planar("brightness", src, dst, ops::brightness_function(params, src.type), params.channels, variant, ctx);
}

namespace {

// Each point op's GPU run: its parameters from the registry's values.
const ops::FamilyRun<PointVariant> kPointRuns[] = {
    {"invert", [](const ImageView& s, const ImageView& d, const ParamValues& v, PointVariant variant,
                  const ExecContext& ctx) { invert(s, d, ops::channels_of(v), variant, ctx); }},
    {"brightness", [](const ImageView& s, const ImageView& d, const ParamValues& v, PointVariant variant,
                      const ExecContext& ctx) { brightness(s, d, ops::brightness_of(v), variant, ctx); }},
    {"contrast", [](const ImageView& s, const ImageView& d, const ParamValues& v, PointVariant variant,
                    const ExecContext& ctx) { contrast(s, d, ops::contrast_of(v), variant, ctx); }},
    {"gamma", [](const ImageView& s, const ImageView& d, const ParamValues& v, PointVariant variant,
                 const ExecContext& ctx) { gamma(s, d, ops::gamma_of(v), variant, ctx); }},
    {"levels", [](const ImageView& s, const ImageView& d, const ParamValues& v, PointVariant variant,
                  const ExecContext& ctx) { levels(s, d, ops::levels_of(v), variant, ctx); }},
};

void bind_point_ops(Operation& op) { ops::bind_family_run(op, kPointRuns, point_variant_from_name); }

GPUFILTER_BIND_GPU_FAMILY(bind_point_ops);

}  // namespace
}  // namespace gpufilter
