// Flips and the half turn: dst(x, y) = src(mirror_x ? w-1-x : x, mirror_y ? h-1-y : y).
// Both sides of a flip are read and written along rows, so even the naive kernel is
// coalesced (mirrored within a warp's span); the vectorized one moves 16-byte units.
#include <algorithm>
#include <cstdint>

#include "common/launch.cuh"
#include "geometry/geometry_launch.hpp"
#include "geometry/geometry_tuning.hpp"
#include "geometry/pixel_bytes.cuh"

namespace gpufilter::kernels {
namespace {

template <int N, int A>
__global__ void flip_naive_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                  std::size_t dst_pitch, int width, int height, bool mirror_x, bool mirror_y) {
  const long long x = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= width) return;
  const long long sx = mirror_x ? width - 1 - x : x;
  for (long long y = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; y < height;
       y += static_cast<long long>(gridDim.y) * blockDim.y) {
    const long long sy = mirror_y ? height - 1 - y : y;
    pixel_row<N, A>(dst, dst_pitch, y)[x] = pixel_row<N, A>(src, src_pitch, sy)[sx];
  }
}

// Vertical flip: row y of dst is row h-1-y of src, copied in 16-byte units. Rows of
// src and dst share their offset mod 16 (the launcher checks), so one head of `head`
// bytes brings both to a 16-byte boundary; the head and the tail go byte by byte.
__global__ void flip_rows_vec16_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                       std::size_t dst_pitch, std::size_t row_bytes, int height, int head) {
  const std::size_t body_units = (row_bytes - static_cast<std::size_t>(head)) / 16;
  const std::size_t body_end = static_cast<std::size_t>(head) + body_units * 16;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (long long y = blockIdx.y; y < height; y += gridDim.y) {
    const unsigned char* s = src + static_cast<std::size_t>(height - 1 - y) * src_pitch;
    unsigned char* d = dst + static_cast<std::size_t>(y) * dst_pitch;
    if (i < body_units) reinterpret_cast<uint4*>(d + head)[i] = reinterpret_cast<const uint4*>(s + head)[i];
    if (blockIdx.x == 0) {
      const std::size_t tail = row_bytes - body_end;
      if (threadIdx.x < static_cast<unsigned>(head)) d[threadIdx.x] = s[threadIdx.x];
      if (threadIdx.x < tail) d[body_end + threadIdx.x] = s[body_end + threadIdx.x];
    }
  }
}

// Horizontal flip (and the half turn with mirror_y): words of P pixels (16 bytes, or
// 48 for 3-, 6- and 12-byte pixels) are read, their pixels reversed in registers and
// written. Word k of a dst row is word words-1-k of the src row, reversed. Needs rows
// aligned to 16 bytes and a whole number of words per row (the launcher checks).
template <int N, int A>
__global__ void flip_words_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                  std::size_t dst_pitch, long long words, int height, bool mirror_y) {
  constexpr int P = (N % 16 == 0) ? 1 : (16 % N == 0) ? 16 / N : 48 / N;
  using Word = PixelWord<N, A, P>;
  using Unit = typename Word::Unit;
  static_assert(Word::kUnitBytes == 16, "flip words move in 16-byte units");
  const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= words) return;
  for (long long y = blockIdx.y; y < height; y += gridDim.y) {
    const long long sy = mirror_y ? height - 1 - y : y;
    const Unit* s = reinterpret_cast<const Unit*>(src + static_cast<std::size_t>(sy) * src_pitch) +
                    (words - 1 - k) * Word::kUnits;
    Unit* d = reinterpret_cast<Unit*>(dst + static_cast<std::size_t>(y) * dst_pitch) + k * Word::kUnits;
    Word in, out;
#pragma unroll
    for (int u = 0; u < Word::kUnits; ++u) in.unit[u] = s[u];
#pragma unroll
    for (int p = 0; p < P; ++p) out.pixel[p] = in.pixel[P - 1 - p];
#pragma unroll
    for (int u = 0; u < Word::kUnits; ++u) d[u] = out.unit[u];
  }
}

std::uintptr_t address(const ImageView& view) { return reinterpret_cast<std::uintptr_t>(view.data); }

}  // namespace

void launch_flip_naive(const ImageView& src, const ImageView& dst, bool mirror_x, bool mirror_y,
                       const ExecContext& ctx) {
  visit_pixel_layout(src.format, [&](auto n, auto a) {
    constexpr int N = decltype(n)::value, A = decltype(a)::value;
    const dim3 block(GeometryTuning::kFlipNaiveX, GeometryTuning::kFlipNaiveY);
    const dim3 grid(grid_x(blocks_for(src.width, GeometryTuning::kFlipNaiveX), "flip_naive_kernel"),
                    grid_y(blocks_for(src.height, GeometryTuning::kFlipNaiveY)));
    flip_naive_kernel<N, A><<<grid, block, 0, ctx.stream>>>(static_cast<const unsigned char*>(src.data), src.pitch,
                                                            static_cast<unsigned char*>(dst.data), dst.pitch,
                                                            src.width, src.height, mirror_x, mirror_y);
  });
  check_launch("flip_naive_kernel", ctx);
}

bool launch_flip_vectorized(const ImageView& src, const ImageView& dst, bool mirror_x, bool mirror_y,
                            const ExecContext& ctx) {
  constexpr int kThreads = GeometryTuning::kFlipThreads;
  if (!mirror_x) {
    if (address(src) % 16 != address(dst) % 16 || src.pitch % 16 != 0 || dst.pitch % 16 != 0) return false;
    const std::size_t row_bytes = src.row_bytes();
    const int head = static_cast<int>(std::min<std::size_t>((16 - address(src) % 16) % 16, row_bytes));
    const std::size_t body_units = (row_bytes - static_cast<std::size_t>(head)) / 16;
    const dim3 grid(grid_x(blocks_for(static_cast<long long>(body_units), kThreads), "flip_rows_vec16_kernel"),
                    grid_y(src.height));
    flip_rows_vec16_kernel<<<grid, kThreads, 0, ctx.stream>>>(static_cast<const unsigned char*>(src.data), src.pitch,
                                                              static_cast<unsigned char*>(dst.data), dst.pitch,
                                                              row_bytes, src.height, head);
    check_launch("flip_rows_vec16_kernel", ctx);
    return true;
  }
  // Whole 16-byte-aligned words on both sides: rows start at 16-byte boundaries and
  // hold a whole number of words (a row of a multiple of 16 bytes holds one).
  const std::size_t row_bytes = src.row_bytes();
  if (address(src) % 16 != 0 || address(dst) % 16 != 0 || src.pitch % 16 != 0 || dst.pitch % 16 != 0 ||
      row_bytes % 16 != 0)
    return false;
  visit_pixel_layout(src.format, [&](auto n, auto a) {
    constexpr int N = decltype(n)::value, A = decltype(a)::value;
    constexpr int kWordBytes = (N % 16 == 0) ? N : (16 % N == 0) ? 16 : 48;
    // A row of a multiple of 16 bytes and of N bytes is a multiple of lcm(N, 16).
    const long long words = static_cast<long long>(row_bytes / kWordBytes);
    const dim3 grid(grid_x(blocks_for(words, kThreads), "flip_words_kernel"), grid_y(src.height));
    flip_words_kernel<N, A><<<grid, kThreads, 0, ctx.stream>>>(static_cast<const unsigned char*>(src.data),
                                                               src.pitch, static_cast<unsigned char*>(dst.data),
                                                               dst.pitch, words, src.height, mirror_y);
  });
  check_launch("flip_words_kernel", ctx);
  return true;
}

}  // namespace gpufilter::kernels
