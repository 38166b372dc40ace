#pragma once
// The integer form of a rank-1 mask for the 8-bit kernels (separable_packed.cu, and the
// lab's horizontal-first separable_fixed.cu), built on the host. Plain C++: the CPU tests emulate the
// kernel's arithmetic from it (fixed_point_output()).
//
// The arithmetic, per channel sample, with b the input bytes:
//   h   = (sum_i qx[i] * b[x + i - R] + h_round) >> h_shift     (horizontal pass, 32-bit)
//   acc =  sum_j qy[j] * h[y + j - R] + v_round                   (vertical pass, 32-bit)
//   out = umulhi(acc, out_mul)                                    (top 32 bits of acc * out_mul)
// Gaussian and other convex masks: weights rounded to 16 fraction bits (each factor
// sums to exactly 65536), h kept with 8 fraction bits, out = acc >> 24 (out_mul 256).
// Box (all taps of each factor equal): qx = qy = 1, exact integer sums, and the
// rounded division by the tap count D as a multiply-high (out_mul = ceil(2^32 / D)).
#include <array>
#include <cstdint>

#include "fixed_strip_plan.hpp"  // same folder: included from the library and the kernels
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/pixel_format.hpp"

namespace gpufilter::kernels {

// The fixed rounding of weighted (non-box) masks: kernels that know at compile time
// that a mask is weighted take these as immediates instead of reading them per row.
struct WeightedRounding {
  static constexpr std::uint32_t kHRound = 1u << 7;
  static constexpr std::uint32_t kHShift = 8;
  static constexpr std::uint32_t kVRound = 1u << 23;
  static constexpr std::uint32_t kOutMul = 256;  // umulhi(acc, 256) = acc >> 24
};

// The largest radius an integer mask is built for (separable_packed's; the lab's
// separable_fixed takes less, lab/convolution/separable_fixed_tuning.hpp). The arithmetic's bounds do not
// depend on it: weighted factors sum to 2^16 at any width, and a 13x13 box's sums of bytes
// (169 * 255) still fit a 16-bit lane.
constexpr int kMaxFixedPointRadius = 6;

struct FixedPointMask {
  // Taps of the padded square window: both factors centred in 2 * radius + 1 slots,
  // zeros outside the mask's own taps (a 5x3 mask runs in a radius-2 window).
  int radius = 0;
  std::array<std::uint32_t, 2 * kMaxFixedPointRadius + 1> qx{};
  std::array<std::uint32_t, 2 * kMaxFixedPointRadius + 1> qy{};
  std::uint32_t h_round = 0;
  std::uint32_t h_shift = 0;
  std::uint32_t v_round = 0;
  std::uint32_t out_mul = 0;
  bool box = false;
};

// The integer mask's own rules, whatever the alpha mode: an 8-bit format, one rank-1
// convex mask of odd sizes up to 2 * max_radius + 1 (max_radius <= kMaxFixedPointRadius),
// the Linear rule, no bias.
bool fixed_point_mask_fits(PixelFormat format, const FilterSpec& spec, int max_radius);

// Whether the spec's one rank-1 mask is a box: each factor's taps all equal, more than
// one tap in all (the kernels then sum bytes exactly and divide once).
bool is_box_mask(const FilterSpec& spec);

// The integer mask for a spec that fixed_point_mask_fits() up to kMaxFixedPointRadius;
// throws Error(InvalidArgument) for one that does not.
FixedPointMask fixed_point_mask(const FilterSpec& spec);

// The kernel's output for one channel sample from the (2R+1)^2 input bytes around it,
// window[j][i] = b(x + i - R, y + j - R): the same integer steps, on the host.
std::uint8_t fixed_point_output(const FixedPointMask& mask, const std::uint8_t* window, int window_stride);

}  // namespace gpufilter::kernels
