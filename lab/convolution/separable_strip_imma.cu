// Which specs the strip kernel with the integer tensor cores' vertical pass runs, its
// integer taps and its launch.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_limits.hpp"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "convolution/step_strip_grid.cuh"
#include "gpufilter/error.hpp"
#include "lab/convolution/separable_strip_imma.cuh"
#include "lab/convolution/separable_strip_imma_launch.hpp"

namespace gpufilter::lab {

namespace {

using imma::ImmaTaps;
using imma::Tuning;
using namespace kernels;  // the library's launch helpers and output rule

constexpr int kRadii[] = {1, 2, 3, 4, 5, 6, 8};  // compiled; a mask between runs in the next

int compiled_radius(const FilterSpec& spec) {
  const int radius = std::max(spec.width(), spec.height()) / 2;
  for (int r : kRadii)
    if (r >= radius) return r;
  return 0;
}

// The vertical factor as integers with kWeightBits fraction bits, summing to exactly 2^16
// (the rounding's remainder on the largest tap, so a flat image stays flat); empty where
// a tap is negative, the factor does not sum to 1, or a tap reaches 2^16 (its high byte
// would not fit).
std::vector<std::uint32_t> integer_taps(const std::vector<float>& y) {
  constexpr double kOne = 1 << Tuning::kWeightBits;
  double sum = 0.0;
  for (float v : y) {
    if (!(v >= 0.0f)) return {};
    sum += v;
  }
  if (std::fabs(sum - 1.0) > 1e-4) return {};
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

// The lanes' A fragments of the banded matrix A[m][k] = q[k - m] (0 <= k - m <= 2R), its
// high bytes then its low bytes: register r of lane (g, t) holds row g + 8 (r % 2),
// columns 16 (r / 2) + 4t .. + 3, column c in byte c % 4.
template <int R>
ImmaTaps<R> taps_of(const FilterSpec& spec) {
  const SeparableMask& mask = spec.separable[0];
  ImmaTaps<R> taps{};
  const int rx = static_cast<int>(mask.x.size()) / 2;
  for (std::size_t i = 0; i < mask.x.size(); ++i)
    taps.x[R - rx + static_cast<int>(i)] = std::ldexp(mask.x[i], -Tuning::kWeightBits);
  const std::vector<std::uint32_t> q = integer_taps(mask.y);
  const int ry = static_cast<int>(q.size()) / 2;
  std::uint32_t centred[2 * R + 1] = {};
  for (std::size_t j = 0; j < q.size(); ++j) centred[R - ry + static_cast<int>(j)] = q[j];
  for (int lane = 0; lane < 32; ++lane) {
    const int g = lane / 4, t = lane % 4;
    for (int r = 0; r < 4; ++r) {
      const int m = g + 8 * (r % 2);
      unsigned hi = 0, lo = 0;
      for (int c = 0; c < 4; ++c) {
        const int k = 16 * (r / 2) + 4 * t + c;
        const int d = k - m;
        const std::uint32_t w = d >= 0 && d <= 2 * R ? centred[d] : 0;
        hi |= (w >> 8) << (8 * c);
        lo |= (w & 0xFFu) << (8 * c);
      }
      taps.a[0][r][lane] = hi;
      taps.a[1][r][lane] = lo;
    }
  }
  return taps;
}

template <int R, bool kPremultiplied, int kShape = Tuning::kShape>
void launch_radius(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                   const ExecContext& ctx) {
  constexpr const char* kName = "separable_strip_imma_kernel";
  const auto kernel = imma::separable_strip_imma_kernel<R, kPremultiplied, kShape>;
  constexpr std::size_t kShared = Tuning::shared_bytes(R);
  allow_dynamic_shared(reinterpret_cast<const void*>(kernel), kShared);
  const StripGrid grid = step_strip_grid(src, Tuning::kBand, reinterpret_cast<const void*>(kernel), Tuning::kThreads,
                                         kShared, Tuning::kStrips, kName);
  using P = std::uint8_t;
  kernel<<<grid.grid, Tuning::kThreads, kShared, ctx.stream>>>(
      pitched<P, 4>(src), pitched<P, 4>(dst), taps_of<R>(spec), border_reads(border.mode, src.width, src.height),
      constant_pixel<P, 4>(border), make_filter2d_output<P, 4>(spec), spec.convex, grid.strip_rows);
  check_launch(kName, ctx);
}

template <int R>
void launch_alpha(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx) {
  if (spec.alpha == AlphaMode::Premultiply) launch_radius<R, true>(src, dst, spec, border, ctx);
  else launch_radius<R, false>(src, dst, spec, border, ctx);
}

}  // namespace

bool separable_strip_imma_fits(PixelFormat format, const FilterSpec& spec) {
  if (format.type != ChannelType::U8 || format.channels != 4) return false;
  if (!spec.is_separable() || spec.masks.size() != 1 || spec.output == FilterOutput::Magnitude) return false;
  if (compiled_radius(spec) == 0 || integer_taps(spec.separable[0].y).empty()) return false;
  return Tuning::shared_bytes(Tuning::kMaxRadius) <= max_shared_memory_per_block();
}

bool separable_strip_imma_runs(PixelFormat format, const FilterSpec& spec) {
  return separable_strip_imma_fits(format, spec) && cached_compute_major() >= 8;
}

void launch_separable_strip_imma(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                 const Border& border, const ExecContext& ctx) {
  if (!separable_strip_imma_runs(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat,
                "separable_strip_imma: runs one rank-1 mask (Linear or Unsharp output) of radius up to " +
                    std::to_string(Tuning::kMaxRadius) +
                    " with a vertical factor of non-negative taps summing to 1, on RGBA8, on GPUs from sm_80 on");
  switch (compiled_radius(spec)) {
    case 1: return launch_alpha<1>(src, dst, spec, border, ctx);
    case 2: return launch_alpha<2>(src, dst, spec, border, ctx);
    case 3: return launch_alpha<3>(src, dst, spec, border, ctx);
    case 4: return launch_alpha<4>(src, dst, spec, border, ctx);
    case 5: return launch_alpha<5>(src, dst, spec, border, ctx);
    case 6: return launch_alpha<6>(src, dst, spec, border, ctx);
    default: return launch_alpha<8>(src, dst, spec, border, ctx);
  }
}

}  // namespace gpufilter::lab
