// The fast transposes of 1-byte pixels: 4x4 blocks of bytes transposed in registers
// (32-bit global words for `fast`, 16-byte words for `fast_wide`, below).
// A thread reads one 32-bit word from each of four consecutive tile rows (coalesced:
// a warp reads 128 bytes of each row), turns the 4x4 bytes around with byte permutes
// so that each word holds one column of the four rows, and stores those words in
// shared memory; the store phase then writes whole 32-bit words of destination rows.
// Shared memory sees 32-bit accesses only, and a rotation of each tile row's words
// (instead of padding, which cannot help: the rows a warp writes are four apart)
// keeps both phases free of bank conflicts.
#include <cstdint>

#include "common/launch.cuh"
#include "geometry/geometry_launch.hpp"
#include "geometry/geometry_tuning.hpp"

namespace gpufilter::kernels {
namespace {

constexpr int kWords = 32;          // 32-bit words per tile row: a 128x128-byte tile
constexpr int kTile = 4 * kWords;   // pixels per tile side
constexpr int kRowsPerPass = 8;     // blockDim.y

// Word w of tile row r lives at column (w + r / 4) % 32: a warp writes rows 4*tx + k
// (same w) and reads one row (all w), both across all 32 banks.
__device__ __forceinline__ int swizzled(int row, int word) { return (word + row / 4) % kWords; }

// out[k] = byte k of each of a, b, c, d (a's in the lowest byte).
__device__ __forceinline__ void transpose4x4(unsigned a, unsigned b, unsigned c, unsigned d, unsigned out[4]) {
  const unsigned ab_low = __byte_perm(a, b, 0x5140), ab_high = __byte_perm(a, b, 0x7362);
  const unsigned cd_low = __byte_perm(c, d, 0x5140), cd_high = __byte_perm(c, d, 0x7362);
  out[0] = __byte_perm(ab_low, cd_low, 0x5410);
  out[1] = __byte_perm(ab_low, cd_low, 0x7632);
  out[2] = __byte_perm(ab_high, cd_high, 0x5410);
  out[3] = __byte_perm(ab_high, cd_high, 0x7632);
}

// The tile covers source columns sx0.. and destination columns dx0.. (see
// transpose_tiled.cu); tile row i is source row f(dx0 + i). Words partly outside the
// image are read and written byte by byte; bytes outside are zeros never written out.
__global__ void __launch_bounds__(kWords * kRowsPerPass)
    transpose_bytes_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst, std::size_t dst_pitch,
                           int width, int height, QuarterTurnMap map, unsigned tiles_x) {
  __shared__ unsigned tile[kTile][kWords];  // [source column][destination word], swizzled
  const long long sx0 = static_cast<long long>(blockIdx.x % tiles_x) * kTile;
  const long long dx0 = static_cast<long long>(blockIdx.x / tiles_x) * kTile;
  const int tx = static_cast<int>(threadIdx.x);
  const long long x = sx0 + 4LL * tx;  // this thread's source word

  for (int group = static_cast<int>(threadIdx.y); group < kTile / 4; group += kRowsPerPass) {
    unsigned rows[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long dx = dx0 + 4LL * group + k;
      rows[k] = 0;
      if (dx < height) {
        const long long sy = map.mirror_y ? height - 1 - dx : dx;
        const unsigned char* row = src + static_cast<std::size_t>(sy) * src_pitch;
        if (x + 4 <= width) {
          rows[k] = *reinterpret_cast<const unsigned*>(row + x);
        } else {
          for (int b = 0; b < 4; ++b)
            if (x + b < width) rows[k] |= static_cast<unsigned>(row[x + b]) << (8 * b);
        }
      }
    }
    unsigned columns[4];
    transpose4x4(rows[0], rows[1], rows[2], rows[3], columns);
#pragma unroll
    for (int k = 0; k < 4; ++k) tile[4 * tx + k][swizzled(4 * tx + k, group)] = columns[k];
  }
  __syncthreads();
  const long long out_x = dx0 + 4LL * tx;  // this thread's destination word
  for (int j = static_cast<int>(threadIdx.y); j < kTile; j += kRowsPerPass) {
    const long long sx = sx0 + j;
    if (sx >= width) break;
    const long long dy = map.mirror_x ? width - 1 - sx : sx;
    unsigned char* row = dst + static_cast<std::size_t>(dy) * dst_pitch;
    const unsigned word = tile[j][swizzled(j, tx)];
    if (out_x + 4 <= height) {
      *reinterpret_cast<unsigned*>(row + out_x) = word;
    } else {
      for (int b = 0; b < 4; ++b)
        if (out_x + b < height) row[out_x + b] = static_cast<unsigned char>(word >> (8 * b));
    }
  }
}

// ---- 16-byte accesses ------------------------------------------------------------------
// The same 128x128-byte tile with 16-byte global words: a thread reads 16 bytes of each
// of four consecutive tile rows (one source row segment of 128 bytes is 8 threads, a
// warp reads four whole segments per instruction), transposes the four 4x4 blocks in
// registers and stores 16 words in shared memory; in the store phase a thread reads four
// consecutive words of one tile row (one 16-byte shared access) and writes them as one
// 16-byte destination word. Shared memory holds 32-bit words; word w of tile row r sits
// at column (w + 4 * (r / 16)) % 32: the 32-bit stores of a warp (rows 16 cx + j, words
// g = 4 w' .. 4 w' + 3) fall in 32 banks, and the 16-byte loads of each quarter warp
// (one row, its 8 chunks rotated as a whole) in 8 different bank groups.

constexpr int kChunks = kTile / 16;            // 16-byte chunks per tile row: 8
constexpr int kThreads16 = kWords * kRowsPerPass;  // 256
static_assert(kThreads16 == kChunks * (kTile / 4), "one pass loads the whole tile");

__device__ __forceinline__ int swizzled16(int row, int word) { return (word + 4 * (row / 16)) % kWords; }

__global__ void __launch_bounds__(kThreads16)
    transpose_bytes16_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                             std::size_t dst_pitch, int width, int height, QuarterTurnMap map, unsigned tiles_x) {
  __shared__ __align__(16) unsigned tile[kTile][kWords];  // [source column][destination word], swizzled
  const long long sx0 = static_cast<long long>(blockIdx.x % tiles_x) * kTile;
  const long long dx0 = static_cast<long long>(blockIdx.x / tiles_x) * kTile;
  const int t = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);

  {
    const int cx = t % kChunks, group = t / kChunks;  // chunk of the source row segment, four tile rows
    const long long x = sx0 + 16LL * cx;
    uint4 rows[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long dx = dx0 + 4LL * group + k;
      rows[k] = make_uint4(0, 0, 0, 0);
      if (dx < height) {
        const long long sy = map.mirror_y ? height - 1 - dx : dx;
        const unsigned char* row = src + static_cast<std::size_t>(sy) * src_pitch;
        if (x + 16 <= width) {
          rows[k] = *reinterpret_cast<const uint4*>(row + x);
        } else {
          unsigned w[4] = {0, 0, 0, 0};
#pragma unroll
          for (int b = 0; b < 16; ++b)
            if (x + b < width) w[b / 4] |= static_cast<unsigned>(row[x + b]) << (8 * (b % 4));
          rows[k] = make_uint4(w[0], w[1], w[2], w[3]);
        }
      }
    }
    const unsigned r0[4] = {rows[0].x, rows[0].y, rows[0].z, rows[0].w};
    const unsigned r1[4] = {rows[1].x, rows[1].y, rows[1].z, rows[1].w};
    const unsigned r2[4] = {rows[2].x, rows[2].y, rows[2].z, rows[2].w};
    const unsigned r3[4] = {rows[3].x, rows[3].y, rows[3].z, rows[3].w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      unsigned columns[4];
      transpose4x4(r0[j], r1[j], r2[j], r3[j], columns);
#pragma unroll
      for (int m = 0; m < 4; ++m) {
        const int r = 16 * cx + 4 * j + m;
        tile[r][swizzled16(r, group)] = columns[m];
      }
    }
  }
  __syncthreads();
  const int q = t % kChunks;  // this thread's 16-byte chunk of a destination row segment
  const long long out_x = dx0 + 16LL * q;
  for (int r = t / kChunks; r < kTile; r += kThreads16 / kChunks) {
    const long long sx = sx0 + r;
    if (sx >= width) break;
    const long long dy = map.mirror_x ? width - 1 - sx : sx;
    unsigned char* row = dst + static_cast<std::size_t>(dy) * dst_pitch;
    const uint4 word = *reinterpret_cast<const uint4*>(&tile[r][swizzled16(r, 4 * q)]);
    if (out_x + 16 <= height) {
      *reinterpret_cast<uint4*>(row + out_x) = word;
    } else {
      const unsigned w[4] = {word.x, word.y, word.z, word.w};
#pragma unroll
      for (int b = 0; b < 16; ++b)
        if (out_x + b < height) row[out_x + b] = static_cast<unsigned char>(w[b / 4] >> (8 * (b % 4)));
    }
  }
}

}  // namespace

bool launch_transpose_bytes(const ImageView& src, const ImageView& dst, QuarterTurnMap map, const ExecContext& ctx) {
  if (src.format.pixel_bytes() != 1 || !rows_aligned(src, dst, 4)) return false;
  const long long tiles_x = blocks_for(src.width, kTile);
  const unsigned grid = grid_x(tiles_x * blocks_for(src.height, kTile), "transpose_bytes_kernel");
  transpose_bytes_kernel<<<grid, dim3(kWords, kRowsPerPass), 0, ctx.stream>>>(
      static_cast<const unsigned char*>(src.data), src.pitch, static_cast<unsigned char*>(dst.data), dst.pitch,
      src.width, src.height, map, static_cast<unsigned>(tiles_x));
  check_launch("transpose_bytes_kernel", ctx);
  return true;
}

}  // namespace gpufilter::kernels

namespace gpufilter::kernels {

bool launch_transpose_bytes16(const ImageView& src, const ImageView& dst, QuarterTurnMap map,
                              const ExecContext& ctx) {
  if (src.format.pixel_bytes() != 1 || !rows_aligned(src, dst, 16)) return false;
  const long long tiles_x = blocks_for(src.width, kTile);
  const unsigned grid = grid_x(tiles_x * blocks_for(src.height, kTile), "transpose_bytes16_kernel");
  transpose_bytes16_kernel<<<grid, dim3(kWords, kRowsPerPass), 0, ctx.stream>>>(
      static_cast<const unsigned char*>(src.data), src.pitch, static_cast<unsigned char*>(dst.data), dst.pitch,
      src.width, src.height, map, static_cast<unsigned>(tiles_x));
  check_launch("transpose_bytes16_kernel", ctx);
  return true;
}

}  // namespace gpufilter::kernels
