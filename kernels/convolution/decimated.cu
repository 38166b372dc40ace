// Gaussian blur at any sigma >= 3 for about the same cost: a Gaussian decimation by h,
// a small Gaussian on the 1/h^2 low-res samples, and a Gaussian interpolation back
// (decimated_plan.hpp says why that is the Gaussian, within a level of 255). Three
// kernels, the image read once and written once:
//  - decimate_kernel: each thread walks one input column down a segment of rows,
//    converting each pixel once and adding it into the kDownSteps low-res rows it feeds
//    (a ring of accumulators in registers, shifted every h rows); batches of rows
//    wholly inside the image load through a pointer stepped by the pitch, with no
//    border mapping; the finished low-res rows of a block's columns go through shared
//    memory, where the block sums them across (every h-th column) into the low-res
//    image d (floats). Segments do not overlap: the rows that straddle two of them are
//    completed by the residual kernel from d and a carry row (decimated_segments.hpp);
//  - residual_kernel: adds the carry rows, then the rest of the variance on d, both
//    axes through a shared tile;
//  - interpolate_kernel: each thread walks one output column down a segment of rows,
//    holding the kUpTaps low-res rows around it (each interpolated across first) in
//    registers; every output pixel is kUpTaps products per channel.
// Borders: the low-res samples near and past the image's edges are sums over input
// positions mapped by the border policy, so every mode behaves as the reference's
// border-extended image; no padded copy.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/border.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "common/stream_buffer.hpp"
#include "convolution/box_stack_launch.hpp"
#include "convolution/decimated_launch.hpp"
#include "convolution/decimated_plan.hpp"
#include "convolution/decimated_segments.hpp"
#include "convolution/filter2d_output.cuh"
#include "convolution/fixed_strip_plan.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = DecimatedTuning;
constexpr int kDownSteps = Tuning::kDownSteps;
constexpr int kUpTaps = Tuning::kUpTaps;
constexpr int kMaxThreads = 512;
// The down walk: rows whose loads are in flight ahead of the row being added (pixels of
// up to 4 bytes; wider ones hold fewer to stay in registers), and the low-res rows
// buffered in shared memory before the block sums them across: at most kFlushRows - 1
// wait, and one step of kRowsAhead rows adds at most kRowsAhead / 2 (h >= 2).
template <class T, int C>
constexpr int kRowsAhead = sizeof(T) * C <= 4 ? 8 : 4;
constexpr int kFlushRows = 4;
constexpr int kBufferRows = kFlushRows - 1 + 8 / 2;

struct DownArgs {
  int factor_y, reach_y, first_y, count_y;  // rows: h, down_reach, d's first index, d's rows
  int factor_x, reach_x, first_x, count_x, taps_x;
  int strip;    // d columns a block writes
  int segment;  // steps of h input rows a block walks (DownSegments::length)
  // By phase: the kDownSteps weights an input row of phase s (row % h) gives the rows it
  // feeds, at s * kDownSteps (tap s + h k of the plan, zero past its taps).
  float weights_y[kDownSteps * Tuning::kMaxFactor];
  float weights_x[kDownSteps * Tuning::kMaxFactor];
};

struct UpArgs {
  int factor_y, factor_x;
  int count_x;  // columns of the low-res image r
  int segment;  // low-res rows (output rows / h) a block walks
  float weights_y[kUpTaps * Tuning::kMaxFactor];  // phase q: kUpTaps weights at q * kUpTaps
  float weights_x[kUpTaps * Tuning::kMaxFactor];
};
static_assert(sizeof(DownArgs) + 256 <= 4096 && sizeof(UpArgs) + 256 <= 4096, "kernel arguments stay within 4 KiB");

struct ResidualArgs {
  int taps_y, taps_x;
  float weights_y[Tuning::kMaxResidualTaps];
  float weights_x[Tuning::kMaxResidualTaps];
};

template <int C>
__device__ __forceinline__ Accum<C> load_accum(const Accum<C>* p) {
  if constexpr (C == 4) {
    const float4 v = __ldg(reinterpret_cast<const float4*>(p));
    return Accum<4>{{v.x, v.y, v.z, v.w}};
  } else {
    Accum<C> v;
#pragma unroll
    for (int c = 0; c < C; ++c) v.c[c] = __ldg(&p->c[c]);
    return v;
  }
}

// A pixel of 4, 8 or 16 bytes as one word access (a struct of bytes would be read byte by
// byte and packed again).
template <class T, int C>
__device__ __forceinline__ Pixel<T, C> load_pixel(const unsigned char* p) {
  Pixel<T, C> pixel;
  if constexpr (sizeof(pixel) == 4) {
    const unsigned w = *reinterpret_cast<const unsigned*>(p);
    memcpy(&pixel, &w, 4);
  } else if constexpr (sizeof(pixel) == 8) {
    const uint2 w = *reinterpret_cast<const uint2*>(p);
    memcpy(&pixel, &w, 8);
  } else if constexpr (sizeof(pixel) == 16) {
    const uint4 w = *reinterpret_cast<const uint4*>(p);
    memcpy(&pixel, &w, 16);
  } else {
    pixel = *reinterpret_cast<const Pixel<T, C>*>(p);
  }
  return pixel;
}

// kPremultiply: out.premultiply, as a constant so the walk holds no per-row select.
// kSteps: the rows axis's decimated_down_steps (kDownSteps for h < 10, one less from
// there on: sigma 13.5 and up), so that no row takes a product of weight zero for every
// phase.
template <class T, int C, class B, bool kPremultiply, int kSteps>
__global__ void __launch_bounds__(kMaxThreads, 2)
    decimate_kernel(PitchedView<T, C> src, Accum<C>* d, Accum<C>* carry, DownArgs a, Pixel<T, C> constant,
                    Filter2dOutput out) {
  constexpr int kAhead = kRowsAhead<T, C>;
  extern __shared__ float4 shared_words[];
  Accum<C>* buffer = reinterpret_cast<Accum<C>*>(shared_words);  // [kBufferRows][blockDim.x]
  const int threads = static_cast<int>(blockDim.x);
  const int t = static_cast<int>(threadIdx.x);
  const int hy = a.factor_y, hx = a.factor_x;
  const int j0 = static_cast<int>(blockIdx.x) * a.strip;
  const int columns_out = min(a.strip, a.count_x - j0);

  // This thread's input column, mapped once; under Constant a column outside reads the
  // constant on every row.
  int column = hx * (j0 + a.first_x) - a.reach_x + t;
  bool constant_column = false;
  if (column < 0 || column >= src.width) {
    if constexpr (B::kConstant) {
      constant_column = true;
      column = 0;
    } else {
      column = B::map(column, src.width);
    }
  }
  const unsigned char* column_base = src.data + sizeof(Pixel<T, C>) * static_cast<std::size_t>(column);
  auto fetch = [&](int y) -> Pixel<T, C> {
    if (y < 0 || y >= src.height) {
      if constexpr (B::kConstant) return constant;
      else y = B::map(y, src.height);
    }
    if constexpr (B::kConstant)
      if (constant_column) return constant;
    return load_pixel<T, C>(column_base + static_cast<std::size_t>(y) * src.pitch);
  };

  constexpr int kOverlap = kSteps - 1;
  const DownSegments segments{a.segment, kOverlap};
  const int steps = segments.steps(a.count_y);
  for (int s0 = static_cast<int>(blockIdx.y) * a.segment; s0 < steps;
       s0 += static_cast<int>(gridDim.y) * a.segment) {
    const int s_end = min(s0 + a.segment, steps);
    // Low-res row b sums input rows h (b + first_y) - reach_y + tap, tap < kSteps h:
    // the steps b .. b + kOverlap of h rows each. The walk runs over steps s0 .. s_end - 1;
    // after step beta this segment adds nothing more to row beta - kOverlap. acc[k] holds
    // row beta - k.
    const int first_row = hy * (s0 + a.first_y) - a.reach_y;
    const int rows = (s_end - s0) * hy;
    Accum<C> acc[kSteps];
#pragma unroll
    for (int k = 0; k < kSteps; ++k) acc[k] = zero_accum<C>();
    Pixel<T, C> ahead[kAhead];
#pragma unroll
    for (int j = 0; j < kAhead; ++j) ahead[j] = fetch(first_row + j);
    int phase = 0;                 // the row's tap within its step
    int finished = s0 - kOverlap;  // the low-res row the current step is the last of here
    int pending = 0, pending_first = 0;
    auto buffer_row = [&](int row, const Accum<C>& value) {  // uniform over the block
      if (row < 0 || row >= a.count_y) return;
      if (pending == 0) pending_first = row;
      store_shared(buffer + pending * threads + t, value);
      ++pending;
    };

    // Sums the buffered low-res rows across: column j of d sums taps_x input columns from
    // h (j - j0) on, in the block's own numbering. Rows before the segment's first step
    // are the rest of rows the segment before began: they go to their carry rows.
    auto flush = [&]() {
      __syncthreads();
      for (int item = t; item < pending * columns_out; item += threads) {
        const int row = item / columns_out, j = item - row * columns_out;
        const Accum<C>* line = buffer + row * threads + hx * j;
        Accum<C> sum = zero_accum<C>();
        for (int u = 0; u < a.taps_x; ++u) accumulate(sum, a.weights_x[u], load_shared(line + u));
        const int y = pending_first + row;
        Accum<C>* target = y < s0 ? carry + static_cast<std::size_t>(segments.carry_from(s0, y)) * a.count_x
                                  : d + static_cast<std::size_t>(y) * a.count_x;
        store_shared(target + j0 + j, sum);
      }
      __syncthreads();
      pending = 0;
    };

    // One input row (loaded kAhead rows before) into the kSteps rows it feeds; the
    // weights past a row's taps are zeros, so every row takes all kSteps products
    // (a predicate would cost its compare and issue the products all the same).
    auto add_row = [&](const Pixel<T, C>& pixel) {
      Accum<C> v = to_accum(pixel);
      if constexpr (kPremultiply) v = premultiplied(v, out);
      const float* w = a.weights_y + phase * kDownSteps;  // immediate offsets from one address
#pragma unroll
      for (int k = 0; k < kSteps; ++k) accumulate(acc[k], w[k], v);
      if (++phase == hy) {
        phase = 0;
        buffer_row(finished, acc[kSteps - 1]);
        ++finished;
#pragma unroll
        for (int k = kSteps - 1; k > 0; --k) acc[k] = acc[k - 1];
        acc[0] = zero_accum<C>();
      }
    };

    int r = 0;
    for (; r + kAhead <= rows; r += kAhead) {
      // The rows this batch loads; wholly inside the image (the common case) they are
      // one address and a pitch step each, with no border mapping.
      const int y = first_row + r + kAhead;
      bool inside = y >= 0 && y + kAhead <= src.height;
      if constexpr (B::kConstant) inside = inside && !constant_column;
      if (inside) {
        const unsigned char* p = column_base + static_cast<std::size_t>(y) * src.pitch;
#pragma unroll
        for (int j = 0; j < kAhead; ++j) {
          const Pixel<T, C> pixel = ahead[j];
          ahead[j] = load_pixel<T, C>(p);
          p += src.pitch;
          add_row(pixel);
        }
      } else {
#pragma unroll
        for (int j = 0; j < kAhead; ++j) {
          const Pixel<T, C> pixel = ahead[j];
          ahead[j] = fetch(y + j);
          add_row(pixel);
        }
      }
      if (pending >= kFlushRows) flush();
    }
#pragma unroll
    for (int j = 0; j < kAhead; ++j)
      if (r + j < rows) add_row(ahead[j]);  // uniform over the block
    // The last kOverlap rows this segment added to: acc[k] holds row s_end - k, which
    // the next segment (if any) completes through its carry row.
    if (pending + kOverlap > kBufferRows) flush();
#pragma unroll
    for (int k = kOverlap; k >= 1; --k) buffer_row(s_end - k, acc[k]);
    if (pending > 0) flush();
  }
}

// The residual Gaussian on d, both axes in one pass: a block loads a tile of d with the
// taps' reach below and right of it into shared memory, each row of d plus its carry
// row where it straddles two down segments, sums down its columns, then along its rows.
// r[y][x] sums d rows y .. y + taps_y - 1 and columns x .. x + taps_x - 1 (d is taps - 1
// larger than r on each axis).
constexpr int kResidualTile = 32;
constexpr int kResidualThreads = 256;

template <int C>
__global__ void __launch_bounds__(kResidualThreads)
    residual_kernel(const Accum<C>* d, const Accum<C>* carry, DownSegments segments, int d_width, int d_height,
                    Accum<C>* r, int width, int height, ResidualArgs a) {
  extern __shared__ float4 shared_words[];
  const int span_x = kResidualTile + a.taps_x - 1, span_y = kResidualTile + a.taps_y - 1;
  Accum<C>* tile = reinterpret_cast<Accum<C>*>(shared_words);  // span_y x span_x of d
  Accum<C>* columns = tile + span_y * span_x;                    // kResidualTile x span_x
  const int x0 = static_cast<int>(blockIdx.x) * kResidualTile;
  const int tid = static_cast<int>(threadIdx.x);
  for (int y0 = static_cast<int>(blockIdx.y) * kResidualTile; y0 < height;
       y0 += static_cast<int>(gridDim.y) * kResidualTile) {
    for (int i = tid; i < span_y * span_x; i += kResidualThreads) {
      const int y = y0 + i / span_x, x = x0 + i % span_x;
      Accum<C> value = zero_accum<C>();
      if (y < d_height && x < d_width) {
        value = load_accum(d + static_cast<std::size_t>(y) * d_width + x);
        const int c = segments.carry_of(y);
        if (c >= 0) accumulate(value, 1.0f, load_accum(carry + static_cast<std::size_t>(c) * d_width + x));
      }
      store_shared(tile + i, value);
    }
    __syncthreads();
    for (int i = tid; i < kResidualTile * span_x; i += kResidualThreads) {
      Accum<C> sum = zero_accum<C>();
      for (int j = 0; j < a.taps_y; ++j) accumulate(sum, a.weights_y[j], load_shared(tile + i + j * span_x));
      store_shared(columns + i, sum);
    }
    __syncthreads();
    for (int i = tid; i < kResidualTile * kResidualTile; i += kResidualThreads) {
      const int ty = i / kResidualTile, tx = i % kResidualTile;
      if (y0 + ty >= height || x0 + tx >= width) continue;
      const Accum<C>* line = columns + ty * span_x + tx;
      Accum<C> sum = zero_accum<C>();
      for (int j = 0; j < a.taps_x; ++j) accumulate(sum, a.weights_x[j], load_shared(line + j));
      store_shared(r + static_cast<std::size_t>(y0 + ty) * width + x0 + tx, sum);
    }
    __syncthreads();  // the next tile overwrites both buffers
  }
}

constexpr int kUpThreads = 256;

// Up weights in shared memory: phase q's kUpTaps weights at q * kUpWeightStride, one
// 16-byte and one 4-byte load a row at a uniform address (from the kernel's arguments,
// each weight would be a load of its own, and the phase's address uniform arithmetic).
constexpr int kUpWeightStride = 8;
static_assert(kUpTaps == 5 && kUpWeightStride == 8, "a phase's weights: one float4 and one float");

// `image`: the input, whose alpha the output copies under AlphaMode::Keep. kPlain: the
// output is the sum as it is (no premultiplied alpha to divide out, no alpha kept), as a
// constant so the row loop holds no per-pixel select.
template <class T, int C, bool kPlain>
__global__ void __launch_bounds__(kUpThreads)
    interpolate_kernel(const Accum<C>* r, PitchedView<T, C> dst, PitchedView<T, C> image, UpArgs a,
                       Filter2dOutput out) {
  __shared__ float4 weight_words[kUpWeightStride / 4 * Tuning::kMaxFactor];
  float* weights_y = reinterpret_cast<float*>(weight_words);
  for (int e = static_cast<int>(threadIdx.x); e < a.factor_y * kUpWeightStride; e += static_cast<int>(blockDim.x)) {
    const int k = e % kUpWeightStride;
    weights_y[e] = k < kUpTaps ? a.weights_y[e / kUpWeightStride * kUpTaps + k] : 0.0f;
  }
  __syncthreads();
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= dst.width) return;
  const int hy = a.factor_y, hx = a.factor_x;
  const int mx = x / hx, qx = x - mx * hx;
  float wx[kUpTaps];
#pragma unroll
  for (int k = 0; k < kUpTaps; ++k) wx[k] = a.weights_x[qx * kUpTaps + k];
  const int positions = (dst.height - 1) / hy + 1;

  auto load_row = [&](Accum<C> (&raw)[kUpTaps], int row) {
    const Accum<C>* p = r + static_cast<std::size_t>(row) * a.count_x + mx;
#pragma unroll
    for (int k = 0; k < kUpTaps; ++k) raw[k] = load_accum(p + k);
  };
  auto across = [&](const Accum<C> (&raw)[kUpTaps]) {
    Accum<C> v = zero_accum<C>();
#pragma unroll
    for (int k = 0; k < kUpTaps; ++k) accumulate(v, wx[k], raw[k]);
    return v;
  };

  for (int m0 = static_cast<int>(blockIdx.y) * a.segment; m0 < positions;
       m0 += static_cast<int>(gridDim.y) * a.segment) {
    const int m_end = min(m0 + a.segment, positions);
    // ring[k]: low-res row m + k interpolated across to column x; raw: the next row's
    // samples, loaded a step before they are needed.
    Accum<C> ring[kUpTaps], raw[kUpTaps];
#pragma unroll
    for (int k = 0; k < kUpTaps - 1; ++k) {
      load_row(raw, m0 + k);
      ring[k] = across(raw);
    }
    load_row(raw, m0 + kUpTaps - 1);
    for (int m = m0; m < m_end; ++m) {
      ring[kUpTaps - 1] = across(raw);
      if (m + 1 < m_end) load_row(raw, m + kUpTaps);
      const int rows = min(hy, dst.height - hy * m);
      unsigned char* line = dst.data + static_cast<std::size_t>(hy * m) * dst.pitch + sizeof(Pixel<T, C>) * x;
      const float* w = weights_y;
      for (int q = 0; q < rows; ++q, line += dst.pitch, w += kUpWeightStride) {
        const float4 w4 = *reinterpret_cast<const float4*>(w);
        const float wk[kUpTaps] = {w4.x, w4.y, w4.z, w4.w, w[4]};
        Accum<C> sum[1] = {zero_accum<C>()};
#pragma unroll
        for (int k = 0; k < kUpTaps; ++k) accumulate(sum[0], wk[k], ring[k]);
        Pixel<T, C>& pixel = *reinterpret_cast<Pixel<T, C>*>(line);
        if constexpr (kPlain) {
          pixel = to_pixel<T, C, /*kClamp=*/false>(sum[0]);  // a Gaussian: within the inputs' range
        } else {
          const Accum<C> centre = out.keep_alpha ? input_value(image.at(x, hy * m + q), out) : zero_accum<C>();
          pixel = filter2d_pixel<T, C, 1>(sum, centre, out);
        }
      }
#pragma unroll
      for (int k = 0; k < kUpTaps - 1; ++k) ring[k] = ring[k + 1];
    }
  }
}

DownArgs down_args(const DecimatedAxis& ay, const DecimatedExtent& ey, const DecimatedAxis& ax,
                   const DecimatedExtent& ex) {
  DownArgs a{};
  a.factor_y = ay.factor;
  a.reach_y = ay.down_reach;
  a.first_y = ey.down_first;
  a.count_y = ey.down_count;
  a.factor_x = ax.factor;
  a.reach_x = ax.down_reach;
  a.first_x = ex.down_first;
  a.count_x = ex.down_count;
  a.taps_x = ax.down_taps;
  for (int phase = 0; phase < ay.factor; ++phase)
    for (int k = 0; k < kDownSteps; ++k)
      a.weights_y[phase * kDownSteps + k] = ay.down[static_cast<std::size_t>(phase + ay.factor * k)];
  std::copy(ax.down.begin(), ax.down.end(), a.weights_x);
  // A block's columns: the strip's taps, at least DecimatedTuning's block width, and
  // strips at least as wide as the taps reach where kMaxThreads allow (the columns
  // past the strip are walked by both blocks that need them).
  const int h = ax.factor, taps = ax.down_taps;
  int strip = std::max(1, (Tuning::kDownColumns - taps) / h + 1);
  strip = std::max(strip, std::min((taps + h - 1) / h, (kMaxThreads - taps) / h + 1));
  a.strip = std::max(1, std::min(strip, a.count_x));
  return a;
}

// Whole warps covering the strip's walked columns.
int down_threads(const DownArgs& a) {
  return static_cast<int>(blocks_for(a.factor_x * (a.strip - 1) + a.taps_x, 32)) * 32;
}

UpArgs up_args(const DecimatedAxis& ay, const DecimatedAxis& ax, const DecimatedExtent& ex) {
  UpArgs a{};
  a.factor_y = ay.factor;
  a.factor_x = ax.factor;
  a.count_x = ex.residual_count;
  std::copy(ay.up.begin(), ay.up.end(), a.weights_y);
  std::copy(ax.up.begin(), ax.up.end(), a.weights_x);
  return a;
}

ResidualArgs residual_args(const DecimatedAxis& ay, const DecimatedAxis& ax) {
  ResidualArgs a{};
  a.taps_y = static_cast<int>(ay.residual.size());
  a.taps_x = static_cast<int>(ax.residual.size());
  std::copy(ay.residual.begin(), ay.residual.end(), a.weights_y);
  std::copy(ax.residual.begin(), ax.residual.end(), a.weights_x);
  return a;
}

template <class T, int C>
void run_decimated(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                   const ExecContext& ctx) {
  const DecimatedAxis ay = cached_decimated_axis(spec.separable[0].y);
  const DecimatedAxis ax = cached_decimated_axis(spec.separable[0].x);
  const DecimatedExtent ey = decimated_extent(ay, src.height), ex = decimated_extent(ax, src.width);
  const Filter2dOutput out = make_filter2d_output<T, C>(spec);

  DownArgs down = down_args(ay, ey, ax, ex);
  const int threads = down_threads(down);
  const std::size_t shared = sizeof(Accum<C>) * static_cast<std::size_t>(kBufferRows) * threads;
  // The ring of low-res rows an input row feeds: kDownSteps, or one less from h = 10
  // (sigma 13.5) on.
  const int ring = std::max(decimated_down_steps(ay), kDownSteps - 1);
  using DownKernel = void (*)(PitchedView<T, C>, Accum<C>*, Accum<C>*, DownArgs, Pixel<T, C>, Filter2dOutput);
  DownKernel down_kernel = nullptr;
  visit_border(border.mode, [&](auto policy) {
    using B = decltype(policy);
    auto pick = [&](auto steps) {
      constexpr int kSteps = decltype(steps)::value;
      down_kernel = C == 4 && out.premultiply ? decimate_kernel<T, C, B, C == 4, kSteps>
                                              : decimate_kernel<T, C, B, false, kSteps>;
    };
    if (ring < kDownSteps)
      pick(std::integral_constant<int, kDownSteps - 1>{});
    else
      pick(std::integral_constant<int, kDownSteps>{});
  });
  const long long blocks_across = blocks_for(down.count_x, down.strip);
  const int down_per_sm = cached_blocks_per_sm(reinterpret_cast<const void*>(down_kernel), threads, shared);
  DownSegments segments{1, ring - 1};
  const int steps = segments.steps(ey.down_count);
  const long long slots = static_cast<long long>(down_per_sm) * cached_sm_count();
  segments.length = decimated_down_segment(steps, blocks_across, slots);
  down.segment = segments.length;

  // d (the down pass's output), the carry rows of the rows that straddle two of its
  // segments, and e (the residual's output).
  const std::size_t row_bytes = sizeof(Accum<C>) * static_cast<std::size_t>(ex.down_count);
  const std::size_t low_res = row_bytes * ey.down_count;
  const std::size_t carry_bytes = row_bytes * segments.carry_rows(ey.down_count);
  const StreamBuffer buffers(2 * low_res + carry_bytes, ctx.stream);
  auto* d = buffers.get<Accum<C>>();
  auto* e = reinterpret_cast<Accum<C>*>(buffers.get<unsigned char>() + low_res);
  auto* carry = reinterpret_cast<Accum<C>*>(buffers.get<unsigned char>() + 2 * low_res);

  const dim3 down_grid(grid_x(blocks_across, "decimate_kernel"), grid_y(blocks_for(steps, down.segment)));
  down_kernel<<<down_grid, threads, shared, ctx.stream>>>(pitched<T, C>(src), d, carry, down,
                                                          constant_pixel<T, C>(border), out);
  check_launch("decimate_kernel", ctx);

  // The residual, from d and the carry rows into e; it runs even where both axes'
  // residuals are a single tap of weight 1, if any row has a carry.
  const ResidualArgs args = residual_args(ay, ax);
  const Accum<C>* r = d;
  if (args.taps_y > 1 || args.taps_x > 1 || segments.count(ey.down_count) > 1) {
    const int span_x = kResidualTile + args.taps_x - 1, span_y = kResidualTile + args.taps_y - 1;
    const std::size_t tile_bytes = sizeof(Accum<C>) * static_cast<std::size_t>(span_y + kResidualTile) * span_x;
    auto kernel = residual_kernel<C>;
    cached_blocks_per_sm(reinterpret_cast<const void*>(kernel), kResidualThreads, tile_bytes);  // opts in to the size
    const dim3 grid(grid_x(blocks_for(ex.residual_count, kResidualTile), "residual_kernel"),
                    grid_y(blocks_for(ey.residual_count, kResidualTile)));
    kernel<<<grid, kResidualThreads, tile_bytes, ctx.stream>>>(d, carry, segments, ex.down_count, ey.down_count, e,
                                                               ex.residual_count, ey.residual_count, args);
    check_launch("residual_kernel", ctx);
    r = e;
  }

  UpArgs up = up_args(ay, ax, ex);
  auto kernel = out.premultiply || out.keep_alpha ? interpolate_kernel<T, C, false> : interpolate_kernel<T, C, true>;
  const int per_sm = cached_blocks_per_sm(reinterpret_cast<const void*>(kernel), kUpThreads, 0);
  const long long across = blocks_for(dst.width, kUpThreads);
  const int positions = (dst.height - 1) / ay.factor + 1;
  // Segments that fill two waves of the GPU's resident blocks (each pays its first
  // kUpTaps - 1 rows again).
  const long long resident = static_cast<long long>(per_sm) * cached_sm_count();
  up.segment = fixed_strip_plan(across, positions, 2 * resident, Tuning::kMinUpSegment, positions).rows;
  const dim3 grid(grid_x(across, "interpolate_kernel"), grid_y(blocks_for(positions, up.segment)));
  kernel<<<grid, kUpThreads, 0, ctx.stream>>>(r, pitched<T, C>(dst), pitched<T, C>(src), up, out);
  check_launch("interpolate_kernel", ctx);
}

}  // namespace

bool decimated_fits(const FilterSpec& spec) { return box_stack_fits(spec); }

bool decimated_preferred(const FilterSpec& spec) {
  return decimated_fits(spec) &&
         std::min(cached_decimated_axis(spec.separable[0].y).factor, cached_decimated_axis(spec.separable[0].x).factor) >=
             Tuning::kAutoMinFactor;
}

void launch_decimated(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                      const ExecContext& ctx) {
  if (!decimated_fits(spec))
    throw Error(ErrorCode::InvalidArgument,
                "decimated: runs Gaussian blurs of sigma >= 3 (masks reaching at least 3 sigma) only");
  visit_format(src.format, [&](auto tag, auto channels) {
    run_decimated<typename decltype(tag)::type, decltype(channels)::value>(src, dst, spec, border, ctx);
  });
}

}  // namespace gpufilter::kernels
