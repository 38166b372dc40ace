#pragma once
// 8-bit masks of up to 3x3 small integer weights (`convolve` with such a mask, `emboss`
// at a whole strength, the Laplacian), exact, in integers: the 3x3 register-window walk
// (window3_int.cuh) with this rule. A row's bytes b, for mask row j,
//   h_j = w[j][0] b(x-1) + w[j][1] b(x) + w[j][2] b(x+1)
// and the output row y = h_0(y-1) + h_1(y) + h_2(y+1) + bias: when row y+1 is taken, the
// thread finishes row y, adds h_1 to the sums of row y + 1 and starts those of row y + 2,
// so it keeps two rows of sums. The sums are exact integers; the outputs saturate at 0
// and 255 as the float kernels' do. Premultiplied RGBA sums its colours as colour x alpha
// (below 2^22: kInteger3x3MaxWeightSum) and divides by the filtered alpha once a pixel.
#include <type_traits>

#include "convolution/integer_3x3_launch.hpp"
#include "convolution/integer_3x3_tuning.hpp"
#include "convolution/window3_int.cuh"
#include "gpufilter/filter_spec.hpp"

namespace gpufilter::kernels {
namespace integer_3x3_detail {

struct Integer3x3Taps {
  int w[3][3];      // [row][column], a smaller mask centred
  int bias;         // FilterSpec::bias in channel units (an integer: integer_3x3_fits)
  int colour_bias;  // what the colours' sums add: premultiplied, 255 times bias (they are 255 times the values)
};

// How a 4-channel image's alpha takes part (1 and 3 channels: Plain).
enum class AlphaRule { Plain, Keep, Premultiply };

template <AlphaRule kAlpha>
struct Integer3x3Rule {
  using Taps = Integer3x3Taps;
  // next: the sums of the next output row so far (its rows above and its own); after:
  // those of the row after it (its row above); centre (Keep): the alpha bytes of the
  // next output row's own pixels.
  template <int S>
  struct Window {
    int next[S], after[S];
    unsigned centre[S];
  };
  template <int S>
  static constexpr int kept_registers() {
    return (kAlpha == AlphaRule::Keep ? 3 : 2) * S;
  }
  // Alpha samples under Keep are copied, not summed.
  template <int C>
  __device__ __forceinline__ static constexpr bool summed(int s) {
    return !(kAlpha == AlphaRule::Keep && C == 4 && s % 4 == 3);
  }

  // The values the mask weighs: the bytes, premultiplied colours as colour x alpha.
  template <int C, int B>
  __device__ __forceinline__ static void values(const unsigned (&b)[B], int (&v)[B]) {
#pragma unroll
    for (int k = 0; k < B; ++k) {
      if constexpr (kAlpha == AlphaRule::Premultiply)
        v[k] = static_cast<int>(k % 4 == 3 ? b[k] : b[k] * b[k - k % 4 + 3]);
      else
        v[k] = static_cast<int>(b[k]);
    }
  }
  template <int C, int B>
  __device__ __forceinline__ static int dot(const Taps& taps, int j, const int (&v)[B], int s) {
    return taps.w[j][0] * v[s] + taps.w[j][1] * v[s + C] + taps.w[j][2] * v[s + 2 * C];
  }

  template <int C, int S, int B>
  __device__ __forceinline__ static void enter(const Taps& taps, Window<S>& w, bool first, const unsigned (&b)[B]) {
    int v[B];
    values<C>(b, v);
#pragma unroll
    for (int s = 0; s < S; ++s) {
      if (!summed<C>(s)) {
        w.centre[s] = b[s + C];
        continue;
      }
      if (!first) w.next[s] = w.after[s] + dot<C>(taps, 1, v, s);
      w.after[s] = dot<C>(taps, 0, v, s);
    }
  }

  template <int C, int S, int B>
  __device__ __forceinline__ static void step(const Taps& taps, Window<S>& w, int, const unsigned (&b)[B],
                                              unsigned (&out)[S]) {
    int v[B];
    values<C>(b, v);
    int sums[S];
#pragma unroll
    for (int s = 0; s < S; ++s) {
      if (!summed<C>(s)) {
        out[s] = w.centre[s];
        w.centre[s] = b[s + C];
        continue;
      }
      const bool colour = kAlpha == AlphaRule::Premultiply && s % 4 != 3;
      sums[s] = w.next[s] + dot<C>(taps, 2, v, s) + (colour ? taps.colour_bias : taps.bias);
      w.next[s] = w.after[s] + dot<C>(taps, 1, v, s);
      w.after[s] = dot<C>(taps, 0, v, s);
      if constexpr (kAlpha != AlphaRule::Premultiply) out[s] = static_cast<unsigned>(min(max(sums[s], 0), 255));
    }
    if constexpr (kAlpha == AlphaRule::Premultiply) {
      // colour = sum / alpha (the sums are 255 times the premultiplied values). Clamped to
      // [0, 255 alpha] as integers, the quotient lies in [0, 255] and needs no float clamp,
      // and an alpha of 0 leaves sums of 0 (divided by 1). The product is rounded once,
      // with the 2^23 that leaves the integer in the low byte.
#pragma unroll
      for (int p = 0; p < S / 4; ++p) {
        const int alpha = min(max(sums[4 * p + 3], 0), 255);
        const float scale = __fdividef(1.0f, __int2float_rn(max(alpha, 1)));
        const int top = 255 * alpha;
#pragma unroll
        for (int c = 0; c < 3; ++c) {
          const int sum = min(max(sums[4 * p + c], 0), top);
          out[4 * p + c] = __float_as_uint(fmaf(__int2float_rn(sum), scale, 8388608.0f));
        }
        out[4 * p + 3] = static_cast<unsigned>(alpha);
      }
    }
  }

  template <int S>
  __device__ __forceinline__ static void roll(Window<S>&) {}  // no slots to rename
};

}  // namespace integer_3x3_detail

// The kernel in Shape's blocks, for a spec that integer_3x3_fits() (integer_3x3_launch.hpp).
template <class Shape>
void launch_integer_3x3_in(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                           const ExecContext& ctx) {
  using namespace integer_3x3_detail;
  const Mask& mask = spec.masks[0];
  Integer3x3Taps taps{};
  const int rx = mask.width / 2, ry = mask.height / 2;
  for (int j = 0; j < mask.height; ++j)
    for (int i = 0; i < mask.width; ++i)
      taps.w[1 - ry + j][1 - rx + i] = static_cast<int>(mask.weights[static_cast<std::size_t>(j) * mask.width + i]);
  taps.bias = integer_3x3_bias(spec);
  taps.colour_bias = spec.alpha == AlphaMode::Premultiply ? 255 * taps.bias : taps.bias;
  const StripBounds rows = Integer3x3Tuning::strip_rows(src.format.channels);
  const auto launch = [&](auto rule, auto channels) {
    launch_window3_int<decltype(rule), Shape, decltype(channels)::value>("integer_3x3_kernel", src, dst, border, taps,
                                                                         rows, ctx);
  };
  using Plain = Integer3x3Rule<AlphaRule::Plain>;
  if (src.format.channels == 1) launch(Plain{}, std::integral_constant<int, 1>{});
  else if (src.format.channels == 3) launch(Plain{}, std::integral_constant<int, 3>{});
  else if (spec.alpha == AlphaMode::Keep) launch(Integer3x3Rule<AlphaRule::Keep>{}, std::integral_constant<int, 4>{});
  else if (spec.alpha == AlphaMode::Premultiply)
    launch(Integer3x3Rule<AlphaRule::Premultiply>{}, std::integral_constant<int, 4>{});
  else launch(Plain{}, std::integral_constant<int, 4>{});
}

}  // namespace gpufilter::kernels
