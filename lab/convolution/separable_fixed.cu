// The lab's 8-bit fixed-point separable filter, superseded by the library's
// separable_packed (docs/techniques/convolution.md, "8-bit filters"): integer weights
// (separable_fixed_weights.hpp), one 32-bit multiply-add per tap and channel sample, no
// int<->float conversion, no shared memory, no barrier.
// Each thread owns P adjacent pixels and walks down a strip of output rows:
//   1. for each row it reaches, it loads the bytes of its pixels plus R either side
//      (fixed_point_rows.cuh) and sums them horizontally into 16-bit sums (8 fraction
//      bits), one register per channel sample;
//   2. it keeps the last 2R+1 rows of those sums in registers (the vertical window; the
//      loop is unrolled 2R+1 times so the window rotates by renaming, not by moves) and
//      sums them vertically into each output row.
// The horizontal pass runs first because its halo is raw bytes, 4 to a word: a thread
// reads its neighbours' halo words itself (cache hits), where a vertical-first order
// would have to exchange 16-bit sums, one register per sample.
#include <cstdint>
#include <string>
#include <type_traits>

#include "common/launch.cuh"
#include "convolution/fixed_point_rows.cuh"
#include "convolution/fixed_radius.hpp"
#include "convolution/fixed_shape_launch.cuh"
#include "convolution/separable_fixed_weights.hpp"
#include "lab/convolution/fixed_shape_visit.hpp"
#include "lab/convolution/separable_fixed_tuning.hpp"

namespace gpufilter::lab {
namespace {

using namespace gpufilter::kernels;  // the register-window code this kernel shares with gradient_int
using Tuning = SeparableFixedTuning;

// The integer mask as a kernel argument (read from the constant bank by the multiply-adds).
template <int R>
struct FixedTaps {
  unsigned qx[2 * R + 1];
  unsigned qy[2 * R + 1];
  unsigned h_round;
  unsigned h_shift;
  unsigned v_round;
  unsigned out_mul;
};

// Registers live through a row: the window, the words loaded ahead, the row's bytes and sums.
template <class Shape, int C, int R>
constexpr int live_registers() {
  using Span = RowSpan<C, Shape::pixels_per_thread(C), R>;
  return (2 * R + 2) * Span::kSamples + Shape::kPrefetchRows * Span::kWords + Span::kBytes;
}

template <int C, int R, class Shape>
__global__ void __launch_bounds__(Shape::kBlockThreads, Shape::min_blocks(live_registers<Shape, C, R>(), R))
    separable_fixed_kernel(ByteImage src, unsigned char* __restrict__ dst, std::size_t dst_pitch, FixedTaps<R> taps,
                           bool aligned, int strip_rows, int strips) {
  constexpr int P = Shape::pixels_per_thread(C);
  constexpr int S = P * C;
  constexpr int kWin = 2 * R + 1;
  using Span = RowSpan<C, P, R>;
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) * P;
  if (x0 >= src.width) return;
  const bool word_loads = word_span_inside<Span>(aligned, x0, src.width, C);
  const bool word_stores = aligned && x0 + P <= src.width;
  SpanStream<C, P, R, Shape::kPrefetchRows> rows(src, x0, word_loads);
  SpanStores<C, P> out_rows{dst, dst_pitch, src.width, x0, word_stores};

  // The horizontal sums of image row y (border-mapped; rows come in order) into h.
  const auto horizontal = [&](int y, unsigned (&h)[S]) {
    unsigned b[Span::kBytes];
    rows.take(y, b);
#pragma unroll
    for (int s = 0; s < S; ++s) {
      unsigned acc = taps.h_round;
#pragma unroll
      for (int i = 0; i < kWin; ++i) acc += taps.qx[i] * b[s + i * C];
      h[s] = acc >> taps.h_shift;
    }
  };

  for (int strip = static_cast<int>(blockIdx.y); strip < strips; strip += static_cast<int>(gridDim.y)) {
    const int y_begin = strip * strip_rows;
    const int y_end = min(y_begin + strip_rows, src.height);
    // The vertical window: image row r's sums sit in slot (r - y_begin + R) % kWin.
    unsigned window[kWin][S];
    rows.start(y_begin - R);
    out_rows.start(y_begin);
#pragma unroll
    for (int k = 0; k < 2 * R; ++k) horizontal(y_begin - R + k, window[k]);
    for (int y = y_begin; y < y_end; y += kWin) {
#pragma unroll
      for (int u = 0; u < kWin; ++u) {
        if (y + u < y_end) {
          // Row y + u + R enters the slot that row y + u - R - 1 leaves.
          horizontal(y + u + R, window[(u + 2 * R) % kWin]);
          unsigned out[S];
#pragma unroll
          for (int s = 0; s < S; ++s) {
            unsigned acc = taps.v_round;
#pragma unroll
            for (int j = 0; j < kWin; ++j) acc += taps.qy[j] * window[(u + j) % kWin][s];
            out[s] = __umulhi(acc, taps.out_mul);
          }
          out_rows.store(out);
        }
      }
    }
  }
}

template <int R>
FixedTaps<R> taps_of(const FixedPointMask& mask) {
  FixedTaps<R> taps{};
  for (int i = 0; i < 2 * R + 1; ++i) {
    taps.qx[i] = mask.qx[static_cast<std::size_t>(i)];
    taps.qy[i] = mask.qy[static_cast<std::size_t>(i)];
  }
  taps.h_round = mask.h_round;
  taps.h_shift = mask.h_shift;
  taps.v_round = mask.v_round;
  taps.out_mul = mask.out_mul;
  return taps;
}

static_assert(Tuning::kMaxRadius == kLargestCompiledRadius, "visit_window_radius compiles radii 1 .. 4");

template <class Shape, int C, int R>
void launch_shape(const ImageView& src, const ImageView& dst, const ByteImage& image, const FixedTaps<R>& taps,
                  bool aligned, const ExecContext& ctx) {
  launch_in_shape<Shape, C>(separable_fixed_kernel<C, R, Shape>, "separable_fixed_kernel", src, dst, image, taps,
                            aligned, FixedShapes::kSeparableFixedStripRows, ctx);
}

}  // namespace

void launch_separable_fixed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            FixedShapeId shape, const ExecContext& ctx) {
  if (!separable_fixed_fits(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat,
                "separable_fixed: runs 8-bit images with one convex rank-1 mask of radius up to " +
                    std::to_string(Tuning::kMaxRadius) + ", the Linear rule without bias, channels separate");
  FixedPointMask mask = fixed_point_mask(spec);
  const int channels = src.format.channels;
  const ByteImage image = byte_image_of(src, border);
  const bool aligned = word_aligned(src.data, src.pitch) && word_aligned(dst.data, dst.pitch);
  visit_window_radius(mask.radius, [&](auto radius) {
    constexpr int R = decltype(radius)::value;
    if (mask.radius < R) {  // a 1x1 mask in the radius-1 window: centre taps only
      mask.qx[1] = mask.qx[0];
      mask.qy[1] = mask.qy[0];
      mask.qx[0] = mask.qy[0] = 0;
    }
    const FixedTaps<R> taps = taps_of<R>(mask);
    visit_fixed_shape(shape, [&](auto shape_tag) {
      using Shape = typename decltype(shape_tag)::type;
      if (channels == 1) launch_shape<Shape, 1, R>(src, dst, image, taps, aligned, ctx);
      else if (channels == 3) launch_shape<Shape, 3, R>(src, dst, image, taps, aligned, ctx);
      else launch_shape<Shape, 4, R>(src, dst, image, taps, aligned, ctx);
    });
  });
}

}  // namespace gpufilter::lab
