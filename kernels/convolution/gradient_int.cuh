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
#include "common/launch.cuh"
#include "convolution/fixed_point_rows.cuh"
#include "convolution/fixed_shape_launch.cuh"
#include "convolution/gradient_int_tuning.hpp"
#include "gpufilter/filter_spec.hpp"

namespace gpufilter::kernels {
namespace gradient_int_detail {

struct GradientTaps {
  int a;          // the smoothing's outer weight
  int c;          // its centre weight
  float scale;    // |s|
};

// An integer |v| < 2^22 as a float, exactly: 1.5 * 2^23 + v has v in its low mantissa bits.
__device__ __forceinline__ float small_int_to_float(int v) {
  return __int_as_float(0x4B400000 + v) - 12582912.0f;
}

// Registers live through a row: three rows of differences and smoothings (and centre
// bytes for kKeepAlpha), the words loaded ahead, the row's bytes and outputs.
template <class Shape, int C, bool kKeepAlpha>
constexpr int gradient_live_registers() {
  using Span = RowSpan<C, Shape::pixels_per_thread(C), 1>;
  return (3 * (kKeepAlpha ? 3 : 2) + 1) * Span::kSamples + Shape::kPrefetchRows * Span::kWords + Span::kBytes;
}

// kKeepAlpha: RGBA with AlphaMode::Keep, alpha copied from the input's centre pixel.
template <int C, bool kKeepAlpha, class Shape>
__global__ void __launch_bounds__(Shape::kBlockThreads,
                                  Shape::min_blocks(gradient_live_registers<Shape, C, kKeepAlpha>(), 1))
    gradient_int_kernel(ByteImage src, unsigned char* __restrict__ dst, std::size_t dst_pitch, GradientTaps taps,
                        bool aligned, int strip_rows, int strips) {
  constexpr int P = Shape::pixels_per_thread(C);
  constexpr int S = P * C;
  using Span = RowSpan<C, P, 1>;
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * P;
  if (x0 >= src.width) return;
  const bool word_loads = word_span_inside<Span>(aligned, x0, src.width, C);
  const bool word_stores = aligned && x0 + P <= src.width;
  SpanStream<C, P, 1, Shape::kPrefetchRows> rows(src, x0, word_loads);
  SpanStores<C, P> out_rows{dst, dst_pitch, src.width, x0, word_stores};

  // Row y's differences, smoothings and (kKeepAlpha) centre bytes; rows come in order.
  // `inside` (a constant at every call): row y lies in the image and the thread moves
  // whole words (SpanStream::take).
  const auto horizontal = [&](bool inside, int y, int (&d)[S], int (&m)[S], unsigned (&centre)[S]) {
    unsigned b[Span::kBytes];
    if (inside)
      rows.template take<true>(y, b);
    else
      rows.template take<false>(y, b);
#pragma unroll
    for (int s = 0; s < S; ++s) {
      const int left = static_cast<int>(b[s]), mid = static_cast<int>(b[s + C]), right = static_cast<int>(b[s + 2 * C]);
      d[s] = right - left;
      m[s] = taps.a * (left + right) + taps.c * mid;
      if constexpr (kKeepAlpha) centre[s] = b[s + C];
    }
  };

  for (int strip = static_cast<int>(blockIdx.y); strip < strips; strip += static_cast<int>(gridDim.y)) {
    const int y_begin = strip * strip_rows;
    const int y_end = min(y_begin + strip_rows, src.height);
    int d[3][S], m[3][S];
    unsigned centre[3][S];
    rows.start(y_begin - 1);
    out_rows.start(y_begin);
    horizontal(kTested, y_begin - 1, d[0], m[0], centre[0]);
    horizontal(kTested, y_begin, d[1], m[1], centre[1]);
    // Output row y + u of a group of 3 from y (u a constant once unrolled: the window's
    // slots are fixed registers).
    const auto row_step = [&](bool inside, int y, int u) {
      const int up = u % 3, mid = (u + 1) % 3, down = (u + 2) % 3;
      horizontal(inside, y + u + 1, d[down], m[down], centre[down]);
      unsigned out[S];
#pragma unroll
      for (int s = 0; s < S; ++s) {
        const float gx = small_int_to_float(taps.a * (d[up][s] + d[down][s]) + taps.c * d[mid][s]);
        const float gy = small_int_to_float(m[down][s] - m[up][s]);
        const float magnitude = sqrt_approx(fmaf(gx, gx, gy * gy)) * taps.scale;
        // Round to nearest (the 2^23 add) after saturating at 255; keep the low byte.
        out[s] = __float_as_uint(fminf(magnitude, 255.0f) + 8388608.0f);
        if constexpr (kKeepAlpha)
          if (s % C == 3) out[s] = centre[mid][s];
      }
      if (inside)
        out_rows.template store<true>(out);
      else
        out_rows.template store<false>(out);
    };
    int y = y_begin;
    // Groups whose rows, the fetched ones included, lie in the image, for a thread that
    // moves whole words: no test a row (separable_packed's fast groups; on the 8K gray
    // Sobel the row tests, border maps and their branches were about a fifth of the
    // instructions).
    if (word_loads && word_stores) {
      for (; y + 3 <= y_end && y + 4 + Shape::kPrefetchRows <= src.height; y += 3) {
#pragma unroll
        for (int u = 0; u < 3; ++u) row_step(kInside, y, u);
      }
    }
    // The rest (edge threads, rows near the top and bottom, a strip's last rows): one
    // row a turn, the window moved up a slot after each.
#pragma unroll 1
    for (; y < y_end; ++y) {
      row_step(kTested, y, 0);
      move_window_up(d);
      move_window_up(m);
      if constexpr (kKeepAlpha) move_window_up(centre);
    }
  }
}

template <class Shape, int C, bool kKeepAlpha>
void launch_shape(const ImageView& src, const ImageView& dst, const ByteImage& image, const GradientTaps& taps,
                  bool aligned, const ExecContext& ctx) {
  launch_in_shape<Shape, C>(gradient_int_kernel<C, kKeepAlpha, Shape>, "gradient_int_kernel", src, dst, image, taps,
                            aligned, GradientIntTuning::strip_rows(C), ctx);
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
  const ByteImage image = byte_image_of(src, border);
  const bool aligned = word_aligned(src.data, src.pitch) && word_aligned(dst.data, dst.pitch);
  if (channels == 1) launch_shape<Shape, 1, false>(src, dst, image, taps, aligned, ctx);
  else if (channels == 3) launch_shape<Shape, 3, false>(src, dst, image, taps, aligned, ctx);
  else if (spec.alpha == AlphaMode::Keep) launch_shape<Shape, 4, true>(src, dst, image, taps, aligned, ctx);
  else launch_shape<Shape, 4, false>(src, dst, image, taps, aligned, ctx);
}

}  // namespace gpufilter::kernels
