// The integer vertical factor of the strip's tensor-core form and its A fragments.
#include "separable_strip_imma_taps.hpp"

#include <cmath>
#include <cstddef>

namespace gpufilter::kernels {

std::vector<std::uint32_t> imma_vertical_taps(const std::vector<float>& y) {
  constexpr double kOne = 1 << kImmaWeightBits;
  double sum = 0.0;
  for (float v : y) {
    if (!(v >= 0.0f)) return {};
    sum += v;
  }
  if (y.empty() || std::fabs(sum - 1.0) > 1e-4) return {};
  std::vector<std::uint32_t> q(y.size());
  long long total = 0;
  std::size_t largest = 0;
  for (std::size_t j = 0; j < y.size(); ++j) {
    q[j] = static_cast<std::uint32_t>(std::lround(y[j] / sum * kOne));
    total += q[j];
    if (q[j] > q[largest]) largest = j;
  }
  const long long fixed = static_cast<long long>(q[largest]) + (static_cast<long long>(kOne) - total);
  if (fixed < 0 || fixed >= static_cast<long long>(kOne)) return {};
  q[largest] = static_cast<std::uint32_t>(fixed);
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
