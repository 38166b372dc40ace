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
// straight). For 3x3 each thread takes one column of the tile and 8 rows of it, so a
// warp's shared reads and global writes cover 32 neighbouring pixels; for 5x5 and 7x7 a
// 2x2 block of outputs. The medians come from selection networks in registers
// (rank/median_select.hpp), shared by the thread's outputs: 3x3 windows sort each window
// row once for the three outputs that hold it; the 2x2 block's windows share a square,
// which feeds one forgetful selection that all four continue. 8- and 16-bit RGBA pixels
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
  // Outputs a thread computes: 3x3 windows share sorted rows among a column of the
  // thread's outputs, 8 rows cost 1.25 row sorts an output (4 rows: 1.5); larger windows
  // go in 2x2 blocks of outputs, whose windows share the values of a (2R)x(2R) square,
  // and each pair of them another 2R values of a row or column.
  static constexpr int rows_per_thread(int radius) { return radius == 1 ? 8 : 2; }
  static constexpr int columns_per_thread(int radius) { return radius == 1 ? 1 : 2; }
  static constexpr int threads(int radius) {
    return kTileW * kTileH / (rows_per_thread(radius) * columns_per_thread(radius));
  }
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

// 5x5 and 7x7: the 2x2 block of outputs whose upper left window is tile rows top ..
// top + 2R and columns left .. left + 2R. The four windows share a (2R)x(2R) square of
// values, fed once into a forgetful selection; copies of it continue: the upper pair's
// with their own row (2R values, the columns both hold), the lower pair's with theirs,
// then each output with its own column (2R + 1 values). Feeding the first (S*S + 3) / 2
// values costs nothing (they are only kept), so what the outputs share is fed first. The
// values of a pixel go one at a time (not unrolled: a 7x7 block is about 1700
// operations, and unrolling four channels would quadruple the code), each written alone.
template <class Lanes, int R, class T, int C, int kInH, int kInW>
__device__ __forceinline__ void median_block_2x2(const typename Lanes::Stored (&tile)[kInH][kInW], int left, int top,
                                                 PitchedView<T, C> dst, int x, int y) {
  using Value = typename Lanes::Value;
  using Ops = typename Lanes::Ops;
  using Selection = ForgetfulMedian<Ops, Value, (2 * R + 1) * (2 * R + 1)>;
  constexpr int kSide = 2 * R + 1;
  constexpr int kInner = 2 * R;  // the shared square's side
  constexpr int kShared = kInner * kInner;
  const bool right_inside = x + 1 < dst.width, lower_inside = y + 1 < dst.height;
#pragma unroll 1
  for (int v = 0; v < Lanes::kValues; ++v) {
    Value shared_square[kShared];
#pragma unroll
    for (int k = 0; k < kInner; ++k)
#pragma unroll
      for (int i = 0; i < kInner; ++i) shared_square[k * kInner + i] = Lanes::value(tile[top + 1 + k][left + 1 + i], v);
    Selection square;  // the four windows' shared values, fed
    square.template feed<0>(shared_square);
    // A row of the pair's own (tile row `row`, the shared columns), then its outputs.
    const auto finish_pair = [&](Selection pair, int row, int pair_top, int out_y) {
      Value own_row[kInner];
#pragma unroll
      for (int i = 0; i < kInner; ++i) own_row[i] = Lanes::value(tile[row][left + 1 + i], v);
      pair.template feed<kShared>(own_row);
      Value left_column[kSide], right_column[kSide];
#pragma unroll
      for (int k = 0; k < kSide; ++k) {
        left_column[k] = Lanes::value(tile[pair_top + k][left], v);
        right_column[k] = Lanes::value(tile[pair_top + k][left + kSide], v);
      }
      Selection left_output = pair;
      left_output.template feed<kShared + kInner>(left_column);
      Lanes::store_value(&dst.at(x, out_y), v, left_output.median());
      if (right_inside) {
        pair.template feed<kShared + kInner>(right_column);
        Lanes::store_value(&dst.at(x + 1, out_y), v, pair.median());
      }
    };
    finish_pair(square, top, top, y);  // the upper pair: its own row is the square's upper neighbour
    if (lower_inside) finish_pair(square, top + kSide, top + 1, y + 1);
  }
}

template <class T, int C, int R>
__global__ void __launch_bounds__(Tuning::threads(R))
    median_tiled_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, BorderMode mode, Pixel<T, C> constant,
                        int tile_rows) {
  using Lanes = MedianLanes<T, C>;
  constexpr int kRows = Tuning::rows_per_thread(R);
  constexpr int kColumns = Tuning::columns_per_thread(R);
  constexpr int kThreads = Tuning::threads(R);
  constexpr int kInW = Tuning::kTileW + 2 * R;
  constexpr int kInH = Tuning::kTileH + 2 * R;
  __shared__ typename Lanes::Stored tile[kInH][kInW];
  const int tx = static_cast<int>(threadIdx.x) * kColumns;  // the thread's first output column in the tile
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
        if (y_first < dst.height) median_block_2x2<Lanes, R>(tile, tx, first, dst, x, y_first);
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
      const dim3 block(Tuning::kTileW / Tuning::columns_per_thread(R), Tuning::kTileH / Tuning::rows_per_thread(R));
      const dim3 grid(grid_x(blocks_for(src.width, Tuning::kTileW), "median_tiled_kernel"), grid_y(tile_rows));
      median_tiled_kernel<T, C, R><<<grid, block, 0, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst),
                                                                   border.mode, constant_pixel<T, C>(border),
                                                                   tile_rows);
    });
  });
  check_launch("median_tiled_kernel", ctx);
}

}  // namespace gpufilter::kernels
