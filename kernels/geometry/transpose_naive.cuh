#pragma once
// The seed's naive transposes (000, 4.4.2) as one kernel template: a thread per pixel
// reading rows and writing columns, or the reverse; four pixels per thread; blocks in
// diagonal order. Every form also serves the quarter turns through QuarterTurnMap. The
// library instantiates naive_row (transpose_naive.cu), the lab the other steps.
#include "common/launch.cuh"
#include "geometry/geometry_launch.hpp"
#include "geometry/pixel_bytes.cuh"

namespace gpufilter::kernels {

// The grid is one-dimensional (no 65535 limit on rows of blocks); block b covers
// block column bx and block row by of a blocks_x x blocks_y grid, in row-major order
// as the hardware schedules a 2-D grid, or in the seed's diagonal order, which sends
// consecutive blocks to different columns of the output (different DRAM partitions).
template <bool kDiagonal>
__device__ __forceinline__ void block_coordinates(unsigned blocks_x, unsigned blocks_y, unsigned& bx, unsigned& by) {
  const unsigned b = blockIdx.x;
  if constexpr (kDiagonal) {
    by = b % blocks_y;
    bx = (b / blocks_y + by) % blocks_x;  // a bijection for any blocks_x, blocks_y
  } else {
    bx = b % blocks_x;
    by = b / blocks_x;
  }
}

// kReadRows: threads index the source (coalesced reads, strided writes); otherwise
// they index the destination (strided reads, coalesced writes). Each thread moves
// kUnroll pixels blockDim.x apart; every one is bounds-checked.
template <int N, int A, bool kReadRows, bool kDiagonal, int kUnroll>
__global__ void transpose_naive_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                       std::size_t dst_pitch, int width, int height, QuarterTurnMap map,
                                       unsigned blocks_x, unsigned blocks_y) {
  unsigned bx, by;
  block_coordinates<kDiagonal>(blocks_x, blocks_y, bx, by);
  // The space the threads walk: the source (width x height) or the destination (height x width).
  const int space_width = kReadRows ? width : height;
  const int space_height = kReadRows ? height : width;
  const long long iy = static_cast<long long>(by) * blockDim.y + threadIdx.y;
  if (iy >= space_height) return;
  const long long ix0 = static_cast<long long>(bx) * blockDim.x * kUnroll + threadIdx.x;
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) {
    const long long ix = ix0 + static_cast<long long>(k) * blockDim.x;
    if (ix >= space_width) break;
    long long sx, sy, dx, dy;
    if constexpr (kReadRows) {
      sx = ix;
      sy = iy;
      dx = map.mirror_y ? height - 1 - sy : sy;
      dy = map.mirror_x ? width - 1 - sx : sx;
    } else {
      dx = ix;
      dy = iy;
      sx = map.mirror_x ? width - 1 - dy : dy;
      sy = map.mirror_y ? height - 1 - dx : dx;
    }
    pixel_row<N, A>(dst, dst_pitch, dy)[dx] = pixel_row<N, A>(src, src_pitch, sy)[sx];
  }
}

inline dim3 block_dims(BlockShape block) {
  switch (block) {
    case BlockShape::Wide32x8: return dim3(32, 8);
    case BlockShape::Square16x16: return dim3(16, 16);
    case BlockShape::Thin8x32: return dim3(8, 32);
  }
  return dim3(16, 16);
}

template <int N, int A, bool kReadRows, bool kDiagonal, int kUnroll>
void launch_naive(const ImageView& src, const ImageView& dst, QuarterTurnMap map, BlockShape shape,
                  const ExecContext& ctx) {
  const dim3 block = block_dims(shape);
  const long long space_width = kReadRows ? src.width : src.height;
  const long long space_height = kReadRows ? src.height : src.width;
  const long long blocks_x = blocks_for(space_width, static_cast<int>(block.x) * kUnroll);
  const long long blocks_y = blocks_for(space_height, static_cast<int>(block.y));
  const unsigned grid = grid_x(blocks_x * blocks_y, "transpose_naive_kernel");
  transpose_naive_kernel<N, A, kReadRows, kDiagonal, kUnroll><<<grid, block, 0, ctx.stream>>>(
      static_cast<const unsigned char*>(src.data), src.pitch, static_cast<unsigned char*>(dst.data), dst.pitch,
      src.width, src.height, map, static_cast<unsigned>(blocks_x), static_cast<unsigned>(blocks_y));
}

}  // namespace gpufilter::kernels
