// The median filter's kernels. Both take the border mode as a runtime argument: a median
// reads each input pixel a handful of times but orders it dozens of times, so mapping
// the coordinates of the (few) reads that leave the image costs little, and one kernel
// per format and radius serves all five modes.
//
// naive: one thread per output pixel gathers its window from global memory, deciding
// the border at every tap, and selection-sorts each channel up to the middle.
//
// tiled: a block loads its 32x32 output tile plus a halo of `radius` pixels into shared
// memory once (edge blocks map coordinates through the border, the others read
// straight), then each thread takes one column of the tile and 4 or 8 rows of it, so a
// warp's shared reads and global writes cover 32 neighbouring pixels. The medians come
// from selection networks in registers (rank/median_select.hpp), shared by the thread's
// outputs: 3x3 windows sort each window row once for the three outputs that hold it;
// 5x5 and 7x7 windows are taken in pairs of outputs that share all rows but one, whose
// shared rows feed one forgetful selection that both continue. 8- and 16-bit RGBA pixels
// are ordered as two words of two 16-bit lanes (one instruction for two channels on
// sm_90); other pixels channel by channel, as 32-bit scalars.
#include <cstdint>
#include <string>
#include <type_traits>

#include "common/border.cuh"
#include "common/border_runtime.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "rank/median_lanes.cuh"
#include "rank/median_launch.hpp"
#include "rank/median_select.hpp"

namespace gpufilter::kernels {
namespace {

// Launch shapes, chosen by counting operations (not yet measured against each other):
struct MedianTuning {
  // tiled: 32x32 outputs a block, one column of them a lane.
  static constexpr int kTileW = 32;
  static constexpr int kTileH = 32;
  // Rows a thread computes: 3x3 windows share sorted rows among the thread's outputs,
  // 8 rows cost 1.25 row sorts an output (4 rows: 1.5); larger windows go in pairs of
  // outputs, two pairs a thread. Threads a block: 32 x (kTileH / rows).
  static constexpr int rows_per_thread(int radius) { return radius == 1 ? 8 : 4; }
  // naive: 32x8 threads, one pixel each.
  static constexpr int kNaiveBlockX = 32;
  static constexpr int kNaiveBlockY = 8;
};
using Tuning = MedianTuning;

constexpr int kMaxWindow = (2 * kMedianMaxRadius + 1) * (2 * kMedianMaxRadius + 1);

// ---- naive ---------------------------------------------------------------------------

template <class T, int C>
__global__ void __launch_bounds__(Tuning::kNaiveBlockX * Tuning::kNaiveBlockY)
    median_naive_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, int radius, BorderMode mode,
                        Pixel<T, C> constant) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= src.width) return;
  const int count = (2 * radius + 1) * (2 * radius + 1);
  const int middle = count / 2;
  // Rows beyond gridDim.y (at most 65535 blocks) are walked with a stride.
  for (long long row = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; row < src.height;
       row += static_cast<long long>(gridDim.y) * blockDim.y) {
    const int y = static_cast<int>(row);
    Pixel<T, C> window[kMaxWindow];
    int n = 0;
    for (int dy = -radius; dy <= radius; ++dy)
      for (int dx = -radius; dx <= radius; ++dx) window[n++] = load_bordered(src, x + dx, y + dy, mode, constant);
    Pixel<T, C> out;
#pragma unroll
    for (int c = 0; c < C; ++c) {
      T values[kMaxWindow];
      for (int i = 0; i < count; ++i) values[i] = window[i].c[c];
      for (int i = 0; i <= middle; ++i) {
        int least = i;
        for (int j = i + 1; j < count; ++j)
          if (values[j] < values[least]) least = j;
        const T v = values[least];
        values[least] = values[i];
        values[i] = v;
      }
      out.c[c] = values[middle];
    }
    dst.at(x, y) = out;
  }
}

// ---- tiled ---------------------------------------------------------------------------

// The block's input (tile plus halo, its first pixel at (x0, y0)) into shared memory, as
// one flat walk so no lane idles on the halo columns. Only blocks whose input leaves the
// image map coordinates; the branch is uniform over the block. All of a thread's loads
// are issued before its first shared store: the source is a generic pointer, which the
// compiler must assume may point into the tile, so loads between stores would each wait
// for the store before them.
template <class Lanes, class T, int C, int kInH, int kInW, int kThreads>
__device__ __forceinline__ void load_tile(typename Lanes::Stored (&tile)[kInH][kInW], const PitchedView<T, C>& src,
                                          int x0, int y0, BorderMode mode, const Pixel<T, C>& constant) {
  constexpr int kCount = kInH * kInW;
  constexpr int kPerThread = (kCount + kThreads - 1) / kThreads;
  const bool interior = x0 >= 0 && y0 >= 0 && x0 + kInW <= src.width && y0 + kInH <= src.height;
  const int thread = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
  Pixel<T, C> pixels[kPerThread];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int i = thread + k * kThreads;
    if (i >= kCount) break;
    const int iy = i / kInW, ix = i % kInW;
    pixels[k] = interior ? src.at(x0 + ix, y0 + iy) : load_bordered(src, x0 + ix, y0 + iy, mode, constant);
  }
  typename Lanes::Stored* flat = &tile[0][0];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int i = thread + k * kThreads;
    if (i >= kCount) break;
    flat[i] = Lanes::stored(pixels[k]);
  }
}

// 3x3: kRows outputs down column tx from tile row `first` (their windows: tile rows
// first .. first + kRows + 1, columns tx .. tx + 2), every value of a pixel in registers.
template <class Lanes, int kRows, class T, int C, int kInH, int kInW>
__device__ __forceinline__ void median_column_3x3(const typename Lanes::Stored (&tile)[kInH][kInW], int tx, int first,
                                                  PitchedView<T, C> dst, int x, int y_first) {
  using Value = typename Lanes::Value;
  Value out[Lanes::kValues][kRows];
#pragma unroll
  for (int v = 0; v < Lanes::kValues; ++v) {
    Value rows[kRows + 2][3];
#pragma unroll
    for (int k = 0; k < kRows + 2; ++k)
#pragma unroll
      for (int i = 0; i < 3; ++i) rows[k][i] = Lanes::value(tile[first + k][tx + i], v);
    median3x3_column<typename Lanes::Ops, kRows>(rows, out[v]);
  }
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    const int y = y_first + j;
    if (y >= dst.height) break;
    Value values[Lanes::kValues];
#pragma unroll
    for (int v = 0; v < Lanes::kValues; ++v) values[v] = out[v][j];
    Lanes::store(&dst.at(x, y), values);
  }
}

// 5x5 and 7x7: kRows outputs down column tx from tile row `first`, in pairs. A pair's
// windows share 2R rows; those feed one selection, which a copy continues with the
// upper output's own row and the original with the lower one's. The values of a pixel
// go one at a time (not unrolled: a 7x7 pair is about 1000 operations, and unrolling
// four channels would quadruple the code), each written alone.
template <class Lanes, int R, int kRows, class T, int C, int kInH, int kInW>
__device__ __forceinline__ void median_column_pairs(const typename Lanes::Stored (&tile)[kInH][kInW], int tx, int first,
                                                    PitchedView<T, C> dst, int x, int y_first) {
  using Value = typename Lanes::Value;
  using Ops = typename Lanes::Ops;
  constexpr int kSide = 2 * R + 1;
  constexpr int kShared = 2 * R * kSide;
#pragma unroll 1
  for (int pair = 0; pair < kRows / 2; ++pair) {
    const int top = first + 2 * pair;  // the upper output's window: tile rows top .. top + 2R
    const int y = y_first + 2 * pair;
    if (y >= dst.height) break;
    const bool lower_inside = y + 1 < dst.height;
#pragma unroll 1
    for (int v = 0; v < Lanes::kValues; ++v) {
      Value shared_rows[kShared], upper_row[kSide], lower_row[kSide];
#pragma unroll
      for (int k = 0; k < 2 * R; ++k)
#pragma unroll
        for (int i = 0; i < kSide; ++i) shared_rows[k * kSide + i] = Lanes::value(tile[top + 1 + k][tx + i], v);
#pragma unroll
      for (int i = 0; i < kSide; ++i) {
        upper_row[i] = Lanes::value(tile[top][tx + i], v);
        lower_row[i] = Lanes::value(tile[top + kSide][tx + i], v);
      }
      ForgetfulMedian<Ops, Value, kSide * kSide> lower;
      lower.template feed<0>(shared_rows);
      ForgetfulMedian<Ops, Value, kSide * kSide> upper = lower;
      upper.template feed<kShared>(upper_row);
      Lanes::store_value(&dst.at(x, y), v, upper.median());
      if (lower_inside) {
        lower.template feed<kShared>(lower_row);
        Lanes::store_value(&dst.at(x, y + 1), v, lower.median());
      }
    }
  }
}

template <class T, int C, int R>
__global__ void __launch_bounds__(Tuning::kTileW* Tuning::kTileH / Tuning::rows_per_thread(R))
    median_tiled_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, BorderMode mode, Pixel<T, C> constant,
                        int tile_rows) {
  using Lanes = MedianLanes<T, C>;
  constexpr int kRows = Tuning::rows_per_thread(R);
  constexpr int kThreads = Tuning::kTileW * Tuning::kTileH / kRows;
  constexpr int kInW = Tuning::kTileW + 2 * R;
  constexpr int kInH = Tuning::kTileH + 2 * R;
  __shared__ typename Lanes::Stored tile[kInH][kInW];
  const int tx = static_cast<int>(threadIdx.x);
  const int first = static_cast<int>(threadIdx.y) * kRows;  // the thread's first output row in the tile
  const int x = static_cast<int>(blockIdx.x) * Tuning::kTileW + tx;

  // gridDim.y is at most 65535: a block takes every gridDim.y-th row of tiles.
  for (int tile_y = static_cast<int>(blockIdx.y); tile_y < tile_rows; tile_y += static_cast<int>(gridDim.y)) {
    load_tile<Lanes, T, C, kInH, kInW, kThreads>(tile, src, static_cast<int>(blockIdx.x) * Tuning::kTileW - R,
                                                 tile_y * Tuning::kTileH - R, mode, constant);
    __syncthreads();
    if (x < dst.width) {
      const int y_first = tile_y * Tuning::kTileH + first;
      if constexpr (R == 1) {
        median_column_3x3<Lanes, kRows>(tile, tx, first, dst, x, y_first);
      } else {
        median_column_pairs<Lanes, R, kRows>(tile, tx, first, dst, x, y_first);
      }
    }
    __syncthreads();  // the next row of tiles reuses the shared buffer
  }
}

// ---- launchers -----------------------------------------------------------------------

// Calls f(std::integral_constant<int, R>{}) for a radius in [1, kMaxRadius].
template <class F>
void visit_radius(int radius, const char* kernel, F&& f) {
  static_assert(kMedianMaxRadius == 3, "a kernel per radius up to kMedianMaxRadius");
  switch (radius) {
    case 1: f(std::integral_constant<int, 1>{}); return;
    case 2: f(std::integral_constant<int, 2>{}); return;
    case 3: f(std::integral_constant<int, 3>{}); return;
  }
  throw Error(ErrorCode::InvalidArgument,
              std::string(kernel) + ": radius " + std::to_string(radius) + " is outside [1, 3]");
}

}  // namespace

void launch_median_naive(const ImageView& src, const ImageView& dst, int radius, const Border& border,
                         const ExecContext& ctx) {
  if (radius < 1 || radius > kMedianMaxRadius)
    throw Error(ErrorCode::InvalidArgument,
                "median_naive_kernel: radius " + std::to_string(radius) + " is outside [1, 3]");
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const dim3 block(Tuning::kNaiveBlockX, Tuning::kNaiveBlockY);
    const dim3 grid(grid_x(blocks_for(src.width, Tuning::kNaiveBlockX), "median_naive_kernel"),
                    grid_y(blocks_for(src.height, Tuning::kNaiveBlockY)));
    median_naive_kernel<T, C><<<grid, block, 0, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), radius,
                                                               border.mode, constant_pixel<T, C>(border));
  });
  check_launch("median_naive_kernel", ctx);
}

void launch_median_tiled(const ImageView& src, const ImageView& dst, int radius, const Border& border,
                         const ExecContext& ctx) {
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const int tile_rows = static_cast<int>(blocks_for(src.height, Tuning::kTileH));
    visit_radius(radius, "median_tiled_kernel", [&](auto r) {
      constexpr int R = decltype(r)::value;
      const dim3 block(Tuning::kTileW, Tuning::kTileH / Tuning::rows_per_thread(R));
      const dim3 grid(grid_x(blocks_for(src.width, Tuning::kTileW), "median_tiled_kernel"), grid_y(tile_rows));
      median_tiled_kernel<T, C, R><<<grid, block, 0, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst),
                                                                   border.mode, constant_pixel<T, C>(border),
                                                                   tile_rows);
    });
  });
  check_launch("median_tiled_kernel", ctx);
}

}  // namespace gpufilter::kernels
