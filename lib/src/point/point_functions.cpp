#include "point/point_functions.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace gpufilter::ops {
namespace {

double range_max(ChannelType type) { return PixelFormat{type, 1}.max_value(); }

// y(x) for every u8 level, saturated and rounded to the nearest level, ties to even.
template <class F>
kernels::PointFunction table_of(F&& y) {
  kernels::PointFunction f;
  f.math = kernels::PointMath::Table;
  for (int x = 0; x < 256; ++x)
    f.table[x] = static_cast<unsigned char>(std::nearbyint(std::clamp(y(static_cast<double>(x)), 0.0, 255.0)));
  return f;
}

kernels::PointFunction linear(double lo, double hi, double from, double scale, double to) {
  kernels::PointFunction f;
  f.math = kernels::PointMath::Linear;
  f.lo = static_cast<float>(lo);
  f.hi = static_cast<float>(hi);
  f.from = static_cast<float>(from);
  f.scale = static_cast<float>(scale);
  f.to = static_cast<float>(to);
  return f;
}

}  // namespace

kernels::PointFunction invert_function() { return kernels::PointFunction{}; }

kernels::PointFunction brightness_function(const BrightnessParams& params, ChannelType type) {
  kernels::PointFunction f;
  f.math = kernels::PointMath::Add;
  const double offset = params.value * range_max(type);
  // Integer formats move by whole levels, so the sum is exact.
  f.offset = static_cast<float>(type == ChannelType::F32 ? offset : std::nearbyint(offset));
  return f;
}

kernels::PointFunction contrast_function(const ContrastParams& params, ChannelType type) {
  const double m = range_max(type), k = params.factor;
  if (type == ChannelType::U8) return table_of([&](double x) { return (x - m / 2) * k + m / 2; });
  return linear(-FLT_MAX, FLT_MAX, m / 2, k, m / 2);
}

kernels::PointFunction gamma_function(const GammaParams& params, ChannelType type) {
  const double m = range_max(type), g = params.gamma;
  if (type == ChannelType::U8) return table_of([&](double x) { return m * std::pow(x / m, 1.0 / g); });
  kernels::PointFunction f;
  f.math = kernels::PointMath::Gamma;
  f.exponent = static_cast<float>(1.0 / g);
  return f;
}

kernels::PointFunction levels_function(const LevelsParams& p, ChannelType type) {
  const double m = range_max(type);
  const double lo = p.in_lo * m, hi = p.in_hi * m, out_lo = p.out_lo * m, out_hi = p.out_hi * m;
  if (type == ChannelType::U8)
    return table_of([&](double x) { return out_lo + (std::clamp(x, lo, hi) - lo) / (hi - lo) * (out_hi - out_lo); });
  return linear(lo, hi, lo, (out_hi - out_lo) / (hi - lo), out_lo);
}

}  // namespace gpufilter::ops
