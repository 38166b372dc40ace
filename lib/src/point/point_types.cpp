// The point family's host side: its variants' names, channel letters, planar views of
// stacked planes and the parameters' checks (its GPU entry points: gpu/point_gpu.cpp).
#include <cctype>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/point_ops.hpp"
#include "point/point_variants.hpp"
#include "throw_invalid.hpp"

namespace gpufilter {

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

}  // namespace gpufilter
