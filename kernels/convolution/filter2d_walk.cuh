#pragma once
// The column walk for small 2-D masks (up to Filter2dWalkTuning::kMaxRadius each side;
// docs/techniques/convolution.md, "Small masks: the column walk"). Each lane of a warp
// owns P adjacent pixel columns (Filter2dWalkTuning::kPixelsALane) and walks down a strip
// of rows, keeping the last 2R + S rows of its columns in registers, converted (and
// premultiplied) once. For an output row, each product w[j][i] * in(q, y + j - R) of its
// column q belongs to output column q + R - i:
//   out(x) = sum_i  v_i(x + i - R),   v_i(q) = sum_j  w[j][i] * in(q, y + j - R)
// The lane sums each target column's products in one chain and hands the sums for the 2R
// columns beyond its own to the lanes that own them (a shuffle and an add each). The H
// edge lanes either side compute only for their neighbours, so a warp stores (32 - 2H) P
// columns. A rank-1 mask sums each column once with its y factor and weighs that sum with
// each x tap. No shared memory, no barrier: each input pixel is loaded and converted once
// a strip, where the tile loads its pixels once and reads them from shared memory for
// every tap.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "common/border_runtime.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "convolution/filter2d_launch.hpp"
#include "convolution/filter2d_output.cuh"
#include "convolution/filter2d_tuning.hpp"
#include "convolution/step_strip_grid.cuh"

namespace gpufilter::kernels::walk {

using Tuning = Filter2dWalkTuning;

// The masks' taps centred in (2R + 1)^2 (a smaller mask's outer taps are 0), a kernel
// argument with compile-time indices: each multiply-add takes its weight from the
// constant bank.
template <int R, int M>
struct WalkTaps {
  float w[M][2 * R + 1][2 * R + 1];  // [mask][row][column]
  // Rank-1 masks' factors (kRank1 kernels): w[m][j][i] = y[m][j] * x[m][i].
  float x[M][2 * R + 1];
  float y[M][2 * R + 1];
};

// The value `v` of the lane `d` lanes to the right (left where d < 0).
template <int C>
__device__ __forceinline__ Accum<C> from_lane(const Accum<C>& v, int d) {
  Accum<C> r;
#pragma unroll
  for (int c = 0; c < C; ++c)
    r.c[c] = d > 0 ? __shfl_down_sync(0xffffffffu, v.c[c], d) : __shfl_up_sync(0xffffffffu, v.c[c], -d);
  return r;
}

template <class T, int C, int R, int M, int P, bool kRank1>
__global__ void __launch_bounds__(Tuning::kThreads, Tuning::min_blocks(P))
    filter2d_walk_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, WalkTaps<R, M> taps, BorderReads border,
                         Pixel<T, C> constant, Filter2dOutput out, int strip_rows) {
  constexpr int S = Tuning::rows_a_step(P);
  constexpr int kWindow = 2 * R + S;
  constexpr int H = Tuning::halo_lanes(R, P);
  // Each product w[j][i] * in(q, y + j - R) of the lane's column q belongs to output
  // column q + R - i: one of the lane's own P, or one of the 2R columns either side,
  // whose sums go to the lanes that own them. kTargets accumulators, from column -R.
  constexpr int kTargets = P + 2 * R;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const int band = (static_cast<int>(blockIdx.x) * Tuning::kWarps + warp) * Tuning::columns_a_warp(R, P);
  const int x = band - H * P + lane * P;  // the lane's first column
  // The lane's columns, mapped through the border once.
  int sx[P];
  bool column_constant[P];
#pragma unroll
  for (int q = 0; q < P; ++q) {
    const int xq = x + q;
    const bool x_inside = xq >= 0 && xq < src.width;
    sx[q] = x_inside ? xq : border_map(xq, src.width, border.x);
    column_constant[q] = !x_inside && border.constant;
  }
  const bool stores = lane >= H && lane < 32 - H;

  // Pixel q of row y. Strips whose rows all lie inside the image (`inside`, the same for
  // the whole block) skip the border's arithmetic, a modulo among it.
  const auto load = [&](int y, int q, bool inside) {
    int sy = y;
    bool constant_row = column_constant[q];
    if (!inside && (y < 0 || y >= src.height)) {
      sy = border_map(y, src.height, border.y);
      constant_row = constant_row || border.constant;
    }
    return load_input<T, C>(src.data + static_cast<std::size_t>(sy) * src.pitch +
                                static_cast<std::size_t>(sx[q]) * sizeof(Pixel<T, C>),
                            constant_row, constant, out);
  };

  for (int strip = static_cast<int>(blockIdx.y); static_cast<long long>(strip) * strip_rows < src.height;
       strip += static_cast<int>(gridDim.y)) {
    const int y_begin = strip * strip_rows;
    const int y_end = min(src.height, y_begin + strip_rows);
    // The last step loads up to S - 1 rows past y_end + R.
    const bool inside = y_begin - R >= 0 && y_end + R + S - 1 <= src.height;
    // window[k][q] holds pixel q of row y0 - R + k of the step at y0.
    Accum<C> window[kWindow][P];
#pragma unroll
    for (int k = 0; k < 2 * R; ++k)
#pragma unroll
      for (int q = 0; q < P; ++q) window[k][q] = load(y_begin - R + k, q, inside);
    for (int y0 = y_begin; y0 < y_end; y0 += S) {
#pragma unroll
      for (int k = 2 * R; k < kWindow; ++k)
#pragma unroll
        for (int q = 0; q < P; ++q) window[k][q] = load(y0 - R + k, q, inside);
#pragma unroll
      for (int s = 0; s < S; ++s) {
        if (y0 + s >= y_end) break;  // the same for the whole warp
        Accum<C> sums[P][M];  // each own column's sums, one a mask
#pragma unroll
        for (int m = 0; m < M; ++m) {
          Accum<C> acc[kTargets];
#pragma unroll
          for (int t = 0; t < kTargets; ++t) acc[t] = zero_accum<C>();
          // Own columns first, then i by i: the products of one target in one chain. A
          // rank-1 mask sums its column once, then weighs that sum for each target.
#pragma unroll
          for (int q = 0; q < P; ++q) {
            if constexpr (kRank1) {
              Accum<C> column_sum = zero_accum<C>();
#pragma unroll
              for (int j = 0; j < 2 * R + 1; ++j) accumulate(column_sum, taps.y[m][j], window[s + j][q]);
#pragma unroll
              for (int i = 0; i < 2 * R + 1; ++i) accumulate(acc[q + 2 * R - i], taps.x[m][i], column_sum);
            } else {
#pragma unroll
              for (int i = 0; i < 2 * R + 1; ++i)
#pragma unroll
                for (int j = 0; j < 2 * R + 1; ++j)
                  accumulate(acc[q + 2 * R - i], taps.w[m][j][i], window[s + j][q]);
            }
          }
          // The other lanes' sums for this lane's columns: target t of the lane d lanes
          // to the left is column t - R + d * P of this one.
#pragma unroll
          for (int t = 0; t < kTargets; ++t) {
            const int column = t - R;  // of the sending lane
            if (column >= 0 && column < P) continue;
            const int d = column < 0 ? -((-column + P - 1) / P) : column / P;  // lanes to the right
            const Accum<C> v = from_lane(acc[t], -d);
            const int own = column - d * P;
#pragma unroll
            for (int c = 0; c < C; ++c) acc[R + own].c[c] += v.c[c];
          }
#pragma unroll
          for (int q = 0; q < P; ++q) sums[q][m] = acc[R + q];
        }
#pragma unroll
        for (int q = 0; q < P; ++q) {
          const Pixel<T, C> p = filter2d_pixel<T, C, M>(sums[q], window[s + R][q], out);
          if (stores && x + q < dst.width) dst.at(x + q, y0 + s) = p;
        }
      }
#pragma unroll
      for (int k = 0; k < 2 * R; ++k)
#pragma unroll
        for (int q = 0; q < P; ++q) window[k][q] = window[k + S][q];
    }
  }
}

template <int R, int M>
WalkTaps<R, M> taps_of(const FilterSpec& spec) {
  WalkTaps<R, M> taps{};
  for (int m = 0; m < M; ++m) {
    const Mask& mask = spec.masks[static_cast<std::size_t>(m)];
    const int rx = mask.width / 2, ry = mask.height / 2;
    for (int j = 0; j < mask.height; ++j)
      for (int i = 0; i < mask.width; ++i)
        taps.w[m][R - ry + j][R - rx + i] = mask.weights[static_cast<std::size_t>(j) * mask.width + i];
  }
  if (spec.is_separable()) {
    for (int m = 0; m < M; ++m) {
      const SeparableMask& factors = spec.separable[static_cast<std::size_t>(m)];
      const int rx = static_cast<int>(factors.x.size()) / 2, ry = static_cast<int>(factors.y.size()) / 2;
      for (std::size_t i = 0; i < factors.x.size(); ++i) taps.x[m][R - rx + static_cast<int>(i)] = factors.x[i];
      for (std::size_t j = 0; j < factors.y.size(); ++j) taps.y[m][R - ry + static_cast<int>(j)] = factors.y[j];
    }
  }
  return taps;
}

template <class T, int C, int R, int M>
void launch_shape(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx) {
  constexpr const char* kName = "filter2d_walk_kernel";
  constexpr int P = Tuning::kPixelsALane;
  // Rank-1 masks (blur, box, sharpen; the Sobel, Scharr and Prewitt pairs of edge):
  // (2R + 1) * 2 products a channel and mask instead of (2R + 1)^2.
  auto kernel = filter2d_walk_kernel<T, C, R, M, P, false>;
  if (spec.is_separable()) kernel = filter2d_walk_kernel<T, C, R, M, P, true>;
  const StripGrid grid = step_strip_grid(src, Tuning::kWarps * Tuning::columns_a_warp(R, P),
                                         reinterpret_cast<const void*>(kernel), Tuning::kThreads, 0, Tuning::kStrips,
                                         kName);
  kernel<<<grid.grid, Tuning::kThreads, 0, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), taps_of<R, M>(spec),
                                                        border_reads(border.mode, src.width, src.height),
                                                        constant_pixel<T, C>(border), make_filter2d_output<T, C>(spec),
                                                        grid.strip_rows);
  check_launch(kName, ctx);
}

// One pixel type's kernels: every channel count, radius (1 or 2) and mask count.
template <class T>
void launch_typed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx) {
  static_assert(Tuning::kMaxRadius == 2, "a radius of each compiled kernel below");
  const int radius = std::max(spec.width(), spec.height()) / 2;
  const int masks = filter2d_mask_count(spec, "filter2d_walk");
  visit_channels(src.format, [&](auto channels) {
    constexpr int C = decltype(channels)::value;
    visit_mask_count(masks, [&](auto k) {
      constexpr int M = decltype(k)::value;
      if (radius <= 1) launch_shape<T, C, 1, M>(src, dst, spec, border, ctx);
      else launch_shape<T, C, 2, M>(src, dst, spec, border, ctx);
    });
  });
}

}  // namespace gpufilter::kernels::walk
