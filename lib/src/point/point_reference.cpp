// The point ops' reference: each sample in double precision straight from the
// definitions in point_ops.hpp, stored rounded (ties to even) and saturated.
#include <algorithm>
#include <cmath>
#include <functional>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"
#include "common/parallel_rows.hpp"
#include "common/pixel_access.hpp"

namespace gpufilter::reference {
namespace {

double top(const ImageView& view) { return view.format.max_value(); }

// y = f(x) on the channels `channels` names; the others copied. Results saturate to
// [0, M] (f32 included); write_channel rounds integers.
void apply(const ImageView& src, const ImageView& dst, PointChannels channels, const char* what,
           const std::function<double(double)>& f) {
  validate_pair(src, dst, what);
  const int count = src.format.channels;
  const double m = top(src);
  // Which channels change: bit c for channel c; a gray image's channel is colour.
  bool change[4] = {false, false, false, false};
  if (count == 1) {
    change[0] = (channels.mask & 0x7u) != 0;
  } else {
    for (int c = 0; c < count; ++c) change[c] = ((channels.mask >> c) & 1u) != 0;
  }
  parallel_rows(src.height, [&](int begin, int end) {
    for (int y = begin; y < end; ++y)
      for (int x = 0; x < src.width; ++x)
        for (int c = 0; c < count; ++c) {
          const double v = read_channel(src, x, y, c);
          write_channel(dst, x, y, c, change[c] ? std::clamp(f(v), 0.0, m) : v);
        }
  });
}

}  // namespace

void invert(const ImageView& src, const ImageView& dst, PointChannels channels) {
  const double m = top(src);
  apply(src, dst, channels, "invert", [m](double x) { return m - x; });
}

void brightness(const ImageView& src, const ImageView& dst, const BrightnessParams& params) {
  validate(params);
  const double m = top(src);
  const double shift = src.format.type == ChannelType::F32 ? params.value : std::nearbyint(params.value * m);
  apply(src, dst, params.channels, "brightness", [shift](double x) { return x + shift; });
}

void contrast(const ImageView& src, const ImageView& dst, const ContrastParams& params) {
  validate(params);
  const double m = top(src), k = params.factor;
  apply(src, dst, params.channels, "contrast", [m, k](double x) { return (x - m / 2) * k + m / 2; });
}

void gamma(const ImageView& src, const ImageView& dst, const GammaParams& params) {
  validate(params);
  const double m = top(src), g = params.gamma;
  apply(src, dst, params.channels, "gamma",
        [m, g](double x) { return m * std::pow(std::max(x, 0.0) / m, 1.0 / g); });
}

void levels(const ImageView& src, const ImageView& dst, const LevelsParams& p) {
  validate(p);
  const double m = top(src);
  const double lo = p.in_lo * m, hi = p.in_hi * m, out_lo = p.out_lo * m, out_hi = p.out_hi * m;
  apply(src, dst, p.channels, "levels", [=](double x) {
    return out_lo + (std::clamp(x, lo, hi) - lo) / (hi - lo) * (out_hi - out_lo);
  });
}

}  // namespace gpufilter::reference
