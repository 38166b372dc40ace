#pragma once
// The 8-bit gradient magnitude kernel, in any launch shape (gradient_int_tuning.hpp): the
// library instantiates its tuned shape (gradient_int.cu), the lab the others.
//
// The 8-bit gradient magnitude for Sobel, Scharr and Prewitt (edge --direction both):
// integer gradients, exact, from a register window, and one square root per sample.
// Each thread owns P adjacent pixels and walks down a strip of rows; for every row it
// reaches it computes, per channel sample, the horizontal difference
// d = b(x+1) - b(x-1) and the horizontal smoothing m = a b(x-1) + c b(x) + a b(x+1),
// and keeps three rows of both in registers:
//   Gx = a d(y-1) + c d(y) + a d(y+1),   Gy = m(y+1) - m(y-1),
//   out = |s| sqrt(Gx^2 + Gy^2), rounded and saturated.
// The gradients are integers below 2^22, so they become floats exactly by the
// magic-number trick (an integer add and a float add, no conversion instruction);
// Gx^2 + Gy^2 and the square root (sqrt.approx, one MUFU op) run in float: a relative
// error near 2^-23 that moves a rounding only where the magnitude lies within about
// 1e-4 of a .5 boundary.
#include <cmath>
#include <vector>

#include "common/approx_sqrt.cuh"
#include "convolution/gradient_int_tuning.hpp"
#include "convolution/window3_int.cuh"
#include "gpufilter/filter_spec.hpp"

namespace gpufilter::kernels {
namespace gradient_int_detail {

struct GradientTaps {
  int a;          // the smoothing's outer weight
  int c;          // its centre weight
  float scale;    // |s|
};

// The rule of the 3x3 walk (window3_int.cuh): each row's differences d and smoothings m
// (and, kKeepAlpha, its centre bytes) in three slots, renamed as a group of 3 walks.
// kKeepAlpha: RGBA with AlphaMode::Keep, alpha copied from the input's centre pixel.
template <bool kKeepAlpha>
struct GradientRule {
  using Taps = GradientTaps;
  template <int S>
  struct Window {
    int d[3][S], m[3][S];
    unsigned centre[3][S];
  };
  template <int S>
  static constexpr int kept_registers() {
    return 3 * (kKeepAlpha ? 3 : 2) * S;
  }

  template <int C, int S, int B>
  __device__ __forceinline__ static void horizontal(const Taps& taps, Window<S>& w, int slot, const unsigned (&b)[B]) {
#pragma unroll
    for (int s = 0; s < S; ++s) {
      const int left = static_cast<int>(b[s]), mid = static_cast<int>(b[s + C]), right = static_cast<int>(b[s + 2 * C]);
      w.d[slot][s] = right - left;
      w.m[slot][s] = taps.a * (left + right) + taps.c * mid;
      if constexpr (kKeepAlpha) w.centre[slot][s] = b[s + C];
    }
  }

  template <int C, int S, int B>
  __device__ __forceinline__ static void enter(const Taps& taps, Window<S>& w, bool first, const unsigned (&b)[B]) {
    horizontal<C>(taps, w, first ? 0 : 1, b);
  }

  template <int C, int S, int B>
  __device__ __forceinline__ static void step(const Taps& taps, Window<S>& w, int u, const unsigned (&b)[B],
                                              unsigned (&out)[S]) {
    const int up = u % 3, mid = (u + 1) % 3, down = (u + 2) % 3;
    horizontal<C>(taps, w, down, b);
#pragma unroll
    for (int s = 0; s < S; ++s) {
      const float gx = small_int_to_float(taps.a * (w.d[up][s] + w.d[down][s]) + taps.c * w.d[mid][s]);
      const float gy = small_int_to_float(w.m[down][s] - w.m[up][s]);
      const float magnitude = sqrt_approx(fmaf(gx, gx, gy * gy)) * taps.scale;
      // Round to nearest (the 2^23 add) after saturating at 255; keep the low byte.
      out[s] = __float_as_uint(fminf(magnitude, 255.0f) + 8388608.0f);
      if constexpr (kKeepAlpha)
        if (s % C == 3) out[s] = w.centre[mid][s];
    }
  }

  template <int S>
  __device__ __forceinline__ static void roll(Window<S>& w) {
    move_window_up(w.d);
    move_window_up(w.m);
    if constexpr (kKeepAlpha) move_window_up(w.centre);
  }
};

template <class Shape, int C, bool kKeepAlpha>
void launch_shape(const ImageView& src, const ImageView& dst, const Border& border, const GradientTaps& taps,
                  const ExecContext& ctx) {
  launch_window3_int<GradientRule<kKeepAlpha>, Shape, C>("gradient_int_kernel", src, dst, border, taps,
                                                         GradientIntTuning::strip_rows(C), ctx);
}

}  // namespace gradient_int_detail

// The kernel in Shape's blocks, for a spec that gradient_int_fits() (gradient_int_launch.hpp).
template <class Shape>
void launch_gradient_int_in(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx) {
  using namespace gradient_int_detail;
  const std::vector<float>& smoothing = spec.separable[0].y;
  const GradientTaps taps{static_cast<int>(smoothing[0]), static_cast<int>(smoothing[1]),
                          std::fabs(spec.separable[0].x[2])};
  const int channels = src.format.channels;
  if (channels == 1) launch_shape<Shape, 1, false>(src, dst, border, taps, ctx);
  else if (channels == 3) launch_shape<Shape, 3, false>(src, dst, border, taps, ctx);
  else if (spec.alpha == AlphaMode::Keep) launch_shape<Shape, 4, true>(src, dst, border, taps, ctx);
  else launch_shape<Shape, 4, false>(src, dst, border, taps, ctx);
}

}  // namespace gpufilter::kernels
