// The integer masks of the 8-bit fixed-point kernel (separable_fixed_weights.hpp).
#include "convolution/separable_fixed_weights.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpufilter/error.hpp"

namespace gpufilter::kernels {
namespace {

constexpr std::uint32_t kOne = 1u << 16;  // a weight of 1.0

bool all_equal(const std::vector<float>& v) {
  return std::all_of(v.begin(), v.end(), [&](float w) { return w == v.front(); });
}

// Weights rounded to 16 fraction bits whose sum is exactly 1.0 (65536): the rounding
// remainder goes to the largest weight, so a symmetric factor stays symmetric. Every
// |q - w * 65536| stays below 1 but the largest one's, which takes the sum's rounding
// (at most taps/2 units, a relative error below 2^-13 of the largest weight).
std::vector<std::uint32_t> quantize(const std::vector<float>& w) {
  std::vector<std::uint32_t> q;
  long long sum = 0;
  for (float v : w) {
    q.push_back(static_cast<std::uint32_t>(std::llround(static_cast<double>(v) * kOne)));
    sum += q.back();
  }
  const auto largest = static_cast<std::size_t>(std::max_element(w.begin(), w.end()) - w.begin());
  q[largest] = static_cast<std::uint32_t>(static_cast<long long>(q[largest]) + (kOne - sum));
  return q;
}

// Places a factor's taps in the centre of the 2R+1 window.
template <class Q>
void place(const std::vector<std::uint32_t>& taps, int radius, Q& window) {
  const int offset = radius - static_cast<int>(taps.size()) / 2;
  for (std::size_t i = 0; i < taps.size(); ++i) window[static_cast<std::size_t>(offset) + i] = taps[i];
}

}  // namespace

bool fixed_point_mask_fits(PixelFormat format, const FilterSpec& spec, int max_radius) {
  if (format.type != ChannelType::U8) return false;
  if (!spec.is_separable() || spec.masks.size() != 1 || !spec.convex) return false;
  if (spec.output != FilterOutput::Linear || spec.bias != 0.0) return false;
  const SeparableMask& m = spec.separable[0];
  if (m.x.size() % 2 == 0 || m.y.size() % 2 == 0) return false;
  const int largest = 2 * std::min(max_radius, kMaxFixedPointRadius) + 1;
  if (static_cast<int>(m.x.size()) > largest || static_cast<int>(m.y.size()) > largest) return false;
  // Convex: non-negative factors (the product's signs could also come from two
  // negative factors; those would need signed sums).
  for (const std::vector<float>* f : {&m.x, &m.y})
    for (float w : *f)
      if (!(w >= 0.0f && w <= 1.0f)) return false;
  return true;
}

bool is_box_mask(const FilterSpec& spec) {
  if (spec.separable.size() != 1) return false;
  const SeparableMask& m = spec.separable[0];
  return all_equal(m.x) && all_equal(m.y) && m.x.size() * m.y.size() > 1;
}

FixedPointMask fixed_point_mask(const FilterSpec& spec) {
  if (spec.separable.size() != 1)
    throw Error(ErrorCode::InvalidArgument, "separable_fixed: one rank-1 mask expected");
  const SeparableMask& m = spec.separable[0];
  FixedPointMask out;
  out.radius = static_cast<int>(std::max(m.x.size(), m.y.size())) / 2;
  if (out.radius > kMaxFixedPointRadius)
    throw Error(ErrorCode::InvalidArgument, "separable_fixed: radius " + std::to_string(out.radius) +
                                                " beyond the fixed-point kernels' " +
                                                std::to_string(kMaxFixedPointRadius));
  const std::uint64_t taps = static_cast<std::uint64_t>(m.x.size()) * m.y.size();
  if (is_box_mask(spec)) {
    // A box: sum the bytes exactly, then round(sum / D) = floor((sum + (D-1)/2) / D)
    // (D is odd, so no ties), computed as umulhi(n, ceil(2^32 / D)): exact for every
    // n * (ceil(2^32/D) * D - 2^32) < 2^32, here n < 2^15 and the excess < D <= 81.
    out.box = true;
    place(std::vector<std::uint32_t>(m.x.size(), 1u), out.radius, out.qx);
    place(std::vector<std::uint32_t>(m.y.size(), 1u), out.radius, out.qy);
    out.h_round = 0;
    out.h_shift = 0;
    out.v_round = static_cast<std::uint32_t>((taps - 1) / 2);
    out.out_mul = static_cast<std::uint32_t>(((std::uint64_t{1} << 32) + taps - 1) / taps);
    return out;
  }
  // 16 fraction bits per factor: h = (sum + 2^7) >> 8 <= 255 * 2^8, and the vertical
  // sum plus 2^23 <= 255 * 2^24 + 2^23 < 2^32, so neither pass overflows 32 bits.
  place(quantize(m.x), out.radius, out.qx);
  place(quantize(m.y), out.radius, out.qy);
  out.h_round = WeightedRounding::kHRound;
  out.h_shift = WeightedRounding::kHShift;
  out.v_round = WeightedRounding::kVRound;
  out.out_mul = WeightedRounding::kOutMul;
  return out;
}

std::uint8_t fixed_point_output(const FixedPointMask& mask, const std::uint8_t* window, int window_stride) {
  const int taps = 2 * mask.radius + 1;
  std::uint32_t acc = mask.v_round;
  for (int j = 0; j < taps; ++j) {
    std::uint32_t h = mask.h_round;
    for (int i = 0; i < taps; ++i)
      h += mask.qx[static_cast<std::size_t>(i)] * window[static_cast<std::size_t>(j) * window_stride + i];
    acc += mask.qy[static_cast<std::size_t>(j)] * (h >> mask.h_shift);
  }
  return static_cast<std::uint8_t>((static_cast<std::uint64_t>(acc) * mask.out_mul) >> 32);
}

}  // namespace gpufilter::kernels
