// The point ops' library entry points: views checked, parameters turned into the
// kernels' PointFunction (u8 tables computed here in double precision), one launch.
#include <cctype>
#include <cfloat>
#include <cmath>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/point_ops.hpp"
#include "kernels/point/point_launch.hpp"
#include "ops/op_checks.hpp"
#include "ops/point_functions.hpp"
#include "ops/point_variants.hpp"
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

PointVariant point_variant_from_name(const std::string& name) {
  return ops::value_of(ops::kPointVariants, name, "point op");
}

const char* to_string(PointVariant variant) { return ops::name_of(ops::kPointVariants, variant); }

PointChannels PointChannels::parse(const std::string& letters) {
  unsigned mask = 0;
  for (char letter : letters) {
    const char* const names = "rgba";
    const char* found = nullptr;
    for (const char* n = names; *n; ++n)
      if (*n == std::tolower(static_cast<unsigned char>(letter))) found = n;
    if (!found)
      throw_invalid("channels: '" + letters + "' holds '" + std::string(1, letter) + "'; use letters from rgba");
    const unsigned bit = 1u << (found - names);
    if (mask & bit) throw_invalid("channels: '" + letters + "' names '" + std::string(1, letter) + "' twice");
    mask |= bit;
  }
  if (mask == 0) throw_invalid("channels: name at least one of r, g, b, a");
  return PointChannels{mask};
}

unsigned PointChannels::mask_for(int channels) const {
  if (channels == 1) return (mask & 0x7u) ? 1u : 0u;
  return mask & ((1u << channels) - 1u);
}

ImageView PlanarView::plane(int c) const {
  if (c < 0 || c >= channels) throw_invalid("planar image: no plane " + std::to_string(c));
  return ImageView{planes[c], width, height, pitch, PixelFormat{type, 1}};
}

PlanarView planar_view(const ImageView& stacked, int channels) {
  validate_view(stacked, "planar image");
  if (stacked.format.channels != 1)
    throw_invalid("planar image: the stacked planes form a 1-channel image, got " + stacked.format.name());
  if (channels != 1 && channels != 3 && channels != 4)
    throw_invalid("planar image: 1, 3 or 4 planes, got " + std::to_string(channels));
  if (stacked.height % channels != 0)
    throw_invalid("planar image: a height of " + std::to_string(stacked.height) + " rows does not hold " +
                  std::to_string(channels) + " planes of equal height");
  PlanarView view;
  view.width = stacked.width;
  view.height = stacked.height / channels;
  view.pitch = stacked.pitch;
  view.type = stacked.format.type;
  view.channels = channels;
  for (int c = 0; c < channels; ++c) view.planes[c] = stacked.row<unsigned char>(c * view.height);
  return view;
}

void validate(const BrightnessParams& params) {
  if (!(params.value >= -1.0 && params.value <= 1.0))
    throw_invalid("brightness: value must be in [-1, 1], got " + std::to_string(params.value));
}
void validate(const ContrastParams& params) {
  if (!(params.factor >= 0.0 && params.factor <= 10.0))
    throw_invalid("contrast: value must be in [0, 10], got " + std::to_string(params.factor));
}
void validate(const GammaParams& params) {
  if (!(params.gamma >= 0.05 && params.gamma <= 20.0))
    throw_invalid("gamma: value must be in [0.05, 20], got " + std::to_string(params.gamma));
}
void validate(const LevelsParams& params) {
  for (double v : {params.in_lo, params.in_hi, params.out_lo, params.out_hi})
    if (!(v >= 0.0 && v <= 1.0)) throw_invalid("levels: every bound must be in [0, 1], got " + std::to_string(v));
  if (!(params.in_lo < params.in_hi))
    throw_invalid("levels: the input range needs lo < hi, got " + std::to_string(params.in_lo) + "," +
                  std::to_string(params.in_hi));
}

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

}  // namespace gpufilter
