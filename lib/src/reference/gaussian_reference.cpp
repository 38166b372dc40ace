// Gaussian blur on the CPU in double precision: a horizontal pass into double rows,
// then a vertical pass over them. The Gaussian is separable and every border mode maps
// rows and columns independently, so this equals the 2-D convolution.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"
#include "reference/border_index.hpp"
#include "reference/parallel_rows.hpp"
#include "reference/pixel_access.hpp"
#include "reference/row_cache.hpp"

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

// Whether any byte of `b` lies between the first and the last byte of `a`.
bool may_overlap(const ImageView& a, const ImageView& b) {
  const auto* a_first = static_cast<const unsigned char*>(a.data);
  const auto* b_first = static_cast<const unsigned char*>(b.data);
  const auto* a_end = a_first + a.pitch * static_cast<std::size_t>(a.height - 1) + a.row_bytes();
  const auto* b_end = b_first + b.pitch * static_cast<std::size_t>(b.height - 1) + b.row_bytes();
  return a_first < b_end && b_first < a_end;
}

}  // namespace

void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& params, const Border& border) {
  validate_pair(src, dst, "blur");
  if (may_overlap(src, dst)) {
    // Rows are written while later rows are still being read: read from a copy.
    std::vector<unsigned char> copy(src.row_bytes() * static_cast<std::size_t>(src.height));
    const ImageView packed{copy.data(), src.width, src.height, src.row_bytes(), src.format};
    for (int y = 0; y < src.height; ++y)
      std::memcpy(packed.row<unsigned char>(y), src.row<const unsigned char>(y), src.row_bytes());
    reference::gaussian_blur(packed, dst, params, border);
    return;
  }
  const int radius = params.effective_radius();
  const std::vector<double> w = weights(params.sigma, radius);
  const int width = src.width, height = src.height, channels = src.format.channels;
  // The constant outside the image is a pixel like any other: stored in the image's type.
  std::array<double, 4> constant{};
  for (std::size_t c = 0; c < constant.size(); ++c) constant[c] = stored_value(border.value[c], src.format.type);
  const std::size_t row_values = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
  const auto at = [&](int x, int c) {
    return static_cast<std::size_t>(x) * static_cast<std::size_t>(channels) + static_cast<std::size_t>(c);
  };

  parallel_rows(height, [&](int begin, int end) {
    // The horizontal pass of the 2*radius+1 source rows an output row reads, kept as a
    // sliding window of rows rather than a whole image of doubles.
    RowCache horizontal(height, row_values, std::min(2 * radius + 1, height), [&](int sy, double* out) {
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < channels; ++c)
          out[at(x, c)] = weighted_sum(w, x, width, border, constant[static_cast<std::size_t>(c)],
                                       [&](int sx) { return read_channel(src, sx, sy, c); });
    });
    std::vector<int> needed(static_cast<std::size_t>(2 * radius + 1));
    for (int y = begin; y < end; ++y) {
      // A row outside the image under Constant (index -1) is all `value`, and its
      // horizontal sum is value * sum(w) = value.
      for (int k = -radius; k <= radius; ++k)
        needed[static_cast<std::size_t>(k + radius)] = border_index(y + k, height, border.mode);
      horizontal.hold(needed);
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < channels; ++c)
          write_channel(dst, x, y, c,
                        weighted_sum(w, y, height, border, constant[static_cast<std::size_t>(c)],
                                     [&](int sy) { return horizontal.row(sy)[at(x, c)]; }));
    }
  });
}

}  // namespace gpufilter::reference
