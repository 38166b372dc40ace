#include "geometry/resize_taps.hpp"

#include <algorithm>
#include <cmath>

namespace gpufilter::reference {
namespace {

constexpr double kPi = 3.14159265358979323846;

int clamp_to(int i, int n) { return std::min(std::max(i, 0), n - 1); }

// Keys' cubic convolution kernel with a = -0.75.
double keys(double t) {
  constexpr double a = -0.75;
  t = std::fabs(t);
  if (t <= 1.0) return ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0;
  if (t < 2.0) return ((a * t - 5.0 * a) * t + 8.0 * a) * t - 4.0 * a;
  return 0.0;
}

double sinc(double t) { return t == 0.0 ? 1.0 : std::sin(kPi * t) / (kPi * t); }
double lanczos4(double t) { return std::fabs(t) < 4.0 ? sinc(t) * sinc(t / 4.0) : 0.0; }

}  // namespace

std::vector<Tap> axis_taps(int d, int n, int out, ResizeFilter filter) {
  const double scale = static_cast<double>(n) / out;
  std::vector<Tap> taps;
  if (filter == ResizeFilter::Nearest) {
    // The source pixel whose span [i, i+1) holds the centre (d + 0.5) * scale.
    const long long i = ((2LL * d + 1) * n) / (2LL * out);
    taps.push_back({static_cast<int>(std::min<long long>(i, n - 1)), 1.0});
    return taps;
  }
  if (filter == ResizeFilter::Area) {
    // The footprint [d, d+1) * scale, each source pixel weighed by the length it covers.
    const double a = d * scale, b = (d + 1) * scale;
    for (int i = static_cast<int>(std::floor(a)); i < n && i < b; ++i) {
      const double covered = std::min(b, i + 1.0) - std::max(a, static_cast<double>(i));
      if (covered > 0.0) taps.push_back({i, covered / (b - a)});
    }
    return taps;
  }
  const double centre = (d + 0.5) * scale - 0.5;
  const int base = static_cast<int>(std::floor(centre));
  const auto add = [&](int first, int last, double (*kernel)(double)) {
    double sum = 0.0;
    for (int i = first; i <= last; ++i) {
      taps.push_back({clamp_to(i, n), kernel(centre - i)});
      sum += taps.back().weight;
    }
    for (Tap& t : taps) t.weight /= sum;
  };
  switch (filter) {
    case ResizeFilter::Linear: add(base, base + 1, [](double t) { return std::max(0.0, 1.0 - std::fabs(t)); }); break;
    case ResizeFilter::Cubic: add(base - 1, base + 2, keys); break;
    default: add(base - 3, base + 4, lanczos4); break;
  }
  return taps;
}

}  // namespace gpufilter::reference
