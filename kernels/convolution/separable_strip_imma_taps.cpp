// The integer vertical factor of the strip's tensor-core form and its A fragments.
#include "separable_strip_imma_taps.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>

namespace gpufilter::kernels {

std::vector<std::uint32_t> imma_integer_taps(const std::vector<float>& y) {
  constexpr double kOne = 1 << kImmaWeightBits;
  double sum = 0.0;
  for (float v : y) {
    if (!(v >= 0.0f)) return {};
    sum += v;
  }
  if (y.empty() || std::fabs(sum - 1.0) > 1e-4) return {};
  // Each tap rounded down, then the units left over one each to the taps with the largest
  // fractions: every tap within one unit of its value, the sum exactly 2^16. (Rounding each
  // tap and giving the remainder to the largest tap put several units on one tap, which a
  // wide mask over a small image, whose outputs are then nearly equal, moved by a share of
  // a level in every pixel alike.)
  std::vector<std::uint32_t> q(y.size());
  std::vector<double> fraction(y.size());
  long long total = 0;
  for (std::size_t j = 0; j < y.size(); ++j) {
    const double exact = y[j] / sum * kOne;
    const double whole = std::floor(exact);
    if (whole >= kOne) return {};
    q[j] = static_cast<std::uint32_t>(whole);
    fraction[j] = exact - whole;
    total += q[j];
  }
  std::vector<std::size_t> order(y.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return fraction[a] > fraction[b]; });
  const long long left = static_cast<long long>(kOne) - total;
  if (left < 0 || left > static_cast<long long>(y.size())) return {};
  for (long long i = 0; i < left; ++i) {
    const std::size_t j = order[static_cast<std::size_t>(i)];
    if (++q[j] >= static_cast<std::uint32_t>(kOne)) return {};
  }
  return q;
}

void imma_fragments(const std::vector<std::uint32_t>& q, int radius, int chunk, ImmaFragments& fragments) {
  const int centre = static_cast<int>(q.size()) / 2;
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int r = 0; r < 4; ++r) {
      const int m = g + 8 * (r % 2);
      std::uint32_t hi = 0, lo = 0;
      for (int c = 0; c < 4; ++c) {
        const int k = kImmaChunkRows * chunk + 16 * (r / 2) + 4 * t + c;
        const int j = k - m - radius + centre;  // the tap of q at offset k - m - radius
        const std::uint32_t w = k - m >= 0 && k - m <= 2 * radius && j >= 0 && j < static_cast<int>(q.size())
                                    ? q[static_cast<std::size_t>(j)]
                                    : 0;
        hi |= (w >> 8) << (8 * c);
        lo |= (w & 0xFFu) << (8 * c);
      }
      fragments[0][r][lane] = hi;
      fragments[1][r][lane] = lo;
    }
  }
}

std::uint32_t imma_fragment_byte(const ImmaFragments& fragments, int h, int row, int column) {
  const int g = row % 8, r = (row / 8) + 2 * (column / 16), t = (column % 16) / 4, c = column % 4;
  return (fragments[h][r][4 * g + t] >> (8 * c)) & 0xFFu;
}

}  // namespace gpufilter::kernels
