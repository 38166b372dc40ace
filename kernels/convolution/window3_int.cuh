#pragma once
// The 8-bit 3x3 register-window walk that gradient_int.cuh and integer_3x3.cuh share:
// each thread owns P adjacent pixels and walks down a strip of rows, taking each row's
// bytes (its pixels and one either side) once, in order, and storing one output row for
// each row it takes after the first two. What a row is turned into, what the thread
// keeps of the rows above, and how an output comes out of them is the Rule's:
//
//   struct Rule {
//     template <int S> struct Window;            // registers kept from row to row
//     struct Taps;                               // the kernel argument
//     template <int S> static constexpr int kept_registers();  // the Window's size
//     // The strip's first two rows (first: the row above the strip's first output).
//     template <int C, int S, int B> static void enter(const Taps&, Window<S>&, bool first,
//                                                      const unsigned (&b)[B]);
//     // Output row y from the rows above and row y + 1's bytes b; u is the row's place
//     // in a group of 3 (a constant once unrolled: a window of 3 slots renames them).
//     template <int C, int S, int B> static void step(const Taps&, Window<S>&, int u,
//                                                     const unsigned (&b)[B], unsigned (&out)[S]);
//     // After a rolled step (u = 0): move the window to where the next u = 0 finds it.
//     template <int S> static void roll(Window<S>&);
//   };
//
// A warp's rows inside the image, moved as whole words, go in groups of 3 with no test
// (on the 8K gray Sobel the row tests, border maps and their branches were about a fifth
// of the instructions); the rest one tested row a turn.
#include "convolution/fixed_point_rows.cuh"
#include "convolution/fixed_shape_launch.cuh"

namespace gpufilter::kernels {

// An integer |v| < 2^22 as a float, exactly: 1.5 * 2^23 + v has v in its low mantissa bits
// (an integer add and a float add, no conversion instruction).
__device__ __forceinline__ float small_int_to_float(int v) {
  return __int_as_float(0x4B400000 + v) - 12582912.0f;
}

// Registers live through a row: the Rule's window, the words loaded ahead, the row's bytes.
template <class Rule, class Shape, int C>
constexpr int window3_live_registers() {
  using Span = RowSpan<C, Shape::pixels_per_thread(C), 1>;
  return Rule::template kept_registers<Span::kSamples>() + Span::kSamples + Shape::kPrefetchRows * Span::kWords +
         Span::kBytes;
}

template <class Rule, int C, class Shape>
__global__ void __launch_bounds__(Shape::kBlockThreads, Shape::min_blocks(window3_live_registers<Rule, Shape, C>(), 1))
    window3_int_kernel(ByteImage src, unsigned char* __restrict__ dst, std::size_t dst_pitch,
                       typename Rule::Taps taps, bool aligned, int strip_rows, int strips) {
  constexpr int P = Shape::pixels_per_thread(C);
  using Span = RowSpan<C, P, 1>;
  constexpr int S = Span::kSamples;
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * P;
  if (x0 >= src.width) return;
  const bool word_loads = word_span_inside<Span>(aligned, x0, src.width, C);
  const bool word_stores = aligned && x0 + P <= src.width;
  SpanStream<C, P, 1, Shape::kPrefetchRows> rows(src, x0, word_loads);
  SpanStores<C, P> out_rows{dst, dst_pitch, src.width, x0, word_stores};

  // Row y's bytes; rows come in order. `inside` (a constant at every call): row y lies
  // in the image and the thread moves whole words (SpanStream::take).
  const auto take = [&](bool inside, int y, unsigned (&b)[Span::kBytes]) {
    if (inside)
      rows.template take<true>(y, b);
    else
      rows.template take<false>(y, b);
  };

  for (int strip = static_cast<int>(blockIdx.y); strip < strips; strip += static_cast<int>(gridDim.y)) {
    const int y_begin = strip * strip_rows;
    const int y_end = min(y_begin + strip_rows, src.height);
    typename Rule::template Window<S> window;
    rows.start(y_begin - 1);
    out_rows.start(y_begin);
    {
      unsigned b[Span::kBytes];
      take(kTested, y_begin - 1, b);
      Rule::template enter<C>(taps, window, true, b);
      take(kTested, y_begin, b);
      Rule::template enter<C>(taps, window, false, b);
    }
    // Output row y + u of a group of 3 from y.
    const auto row_step = [&](bool inside, int y, int u) {
      unsigned b[Span::kBytes];
      take(inside, y + u + 1, b);
      unsigned out[S];
      Rule::template step<C>(taps, window, u, b, out);
      if (inside)
        out_rows.template store<true>(out);
      else
        out_rows.template store<false>(out);
    };
    int y = y_begin;
    if (word_loads && word_stores) {
      for (; y + 3 <= y_end && y + 4 + Shape::kPrefetchRows <= src.height; y += 3) {
#pragma unroll
        for (int u = 0; u < 3; ++u) row_step(kInside, y, u);
      }
    }
    // The rest (edge threads, rows near the top and bottom, a strip's last rows).
#pragma unroll 1
    for (; y < y_end; ++y) {
      row_step(kTested, y, 0);
      Rule::roll(window);
    }
  }
}

// Launches the walk with Rule in Shape's blocks over src (an 8-bit image of C channels).
template <class Rule, class Shape, int C>
void launch_window3_int(const char* name, const ImageView& src, const ImageView& dst, const Border& border,
                        const typename Rule::Taps& taps, StripBounds strip_rows, const ExecContext& ctx) {
  const ByteImage image = byte_image_of(src, border);
  const bool aligned = word_aligned(src.data, src.pitch) && word_aligned(dst.data, dst.pitch);
  launch_in_shape<Shape, C>(window3_int_kernel<Rule, C, Shape>, name, src, dst, image, taps, aligned, strip_rows,
                            ctx);
}

}  // namespace gpufilter::kernels
