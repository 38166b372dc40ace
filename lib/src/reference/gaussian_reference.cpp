// Gaussian blur on the CPU in double precision: a horizontal pass into a double
// buffer, then a vertical pass. The Gaussian is separable and every border mode maps
// rows and columns independently, so this equals the 2-D convolution.
#include <array>
#include <cmath>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"
#include "reference/border_index.hpp"
#include "reference/parallel_rows.hpp"
#include "reference/pixel_access.hpp"

namespace gpufilter::reference {
namespace {

std::vector<double> weights(double sigma, int radius) {
  std::vector<double> w(static_cast<std::size_t>(2 * radius + 1));
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k) sum += w[static_cast<std::size_t>(k + radius)] = std::exp(-0.5 * k * k / (sigma * sigma));
  for (double& v : w) v /= sum;
  return w;
}

// sum over k of w[k] * (the sample at centre + k - radius along an axis of length n),
// where a coordinate outside the axis reads through the border mode, or `constant`.
template <class Read>
double weighted_sum(const std::vector<double>& w, int centre, int n, const Border& border, double constant,
                    Read read) {
  const int radius = static_cast<int>(w.size()) / 2;
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k) {
    const int i = border_index(centre + k, n, border.mode);
    sum += w[static_cast<std::size_t>(k + radius)] * (i < 0 ? constant : read(i));
  }
  return sum;
}

}  // namespace

void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& params, const Border& border) {
  validate_pair(src, dst, "blur");
  const int radius = params.effective_radius();
  const std::vector<double> w = weights(params.sigma, radius);
  const int width = src.width, height = src.height, channels = src.format.channels;
  // The constant outside the image is a pixel like any other: stored in the image's type.
  std::array<double, 4> constant{};
  for (std::size_t c = 0; c < constant.size(); ++c) constant[c] = stored_value(border.value[c], src.format.type);
  const auto at = [&](int x, int y, int c) {
    return (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) *
               static_cast<std::size_t>(channels) + static_cast<std::size_t>(c);
  };

  std::vector<double> horizontal(static_cast<std::size_t>(width) * height * channels);
  parallel_rows(height, [&](int begin, int end) {
    for (int y = begin; y < end; ++y)
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < channels; ++c)
          horizontal[at(x, y, c)] = weighted_sum(w, x, width, border, constant[static_cast<std::size_t>(c)],
                                                 [&](int sx) { return read_channel(src, sx, y, c); });
  });
  // A row outside the image under Constant is all `value`, and its horizontal sum is
  // value * sum(w) = value.
  parallel_rows(height, [&](int begin, int end) {
    for (int y = begin; y < end; ++y)
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < channels; ++c)
          write_channel(dst, x, y, c,
                        weighted_sum(w, y, height, border, constant[static_cast<std::size_t>(c)],
                                     [&](int sy) { return horizontal[at(x, sy, c)]; }));
  });
}

}  // namespace gpufilter::reference
