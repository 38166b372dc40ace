// Flips and the half turn: dst(x, y) = src(mirror_x ? w-1-x : x, mirror_y ? h-1-y : y).
// Both sides of a flip are read and written along rows, so even the naive kernel is
// coalesced (mirrored within a warp's span); the vectorized one moves 16-byte units.
#include <algorithm>
#include <cstdint>

#include "common/launch.cuh"
#include "conversion/byte_words.cuh"
#include "conversion/warp_stage.cuh"
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

// The pixels of a word of G 16-byte chunks in reverse order, by constant byte
// positions: 1-byte pixels are one byte permute per 32-bit word.
template <int N, int G>
__device__ __forceinline__ void reverse_pixels(const ByteWords<4 * G>& in, ByteWords<4 * G>& out) {
  if constexpr (N == 1) {
#pragma unroll
    for (int w = 0; w < 4 * G; ++w) out.w[w] = __byte_perm(in.w[4 * G - 1 - w], 0u, 0x0123);
  } else if constexpr (N == 2) {
#pragma unroll
    for (int w = 0; w < 4 * G; ++w) out.w[w] = __byte_perm(in.w[4 * G - 1 - w], 0u, 0x1032);
  } else if constexpr (N % 4 == 0) {
    constexpr int kWordsPerPixel = N / 4;
    constexpr int P = 16 * G / N;
#pragma unroll
    for (int p = 0; p < P; ++p)
#pragma unroll
      for (int j = 0; j < kWordsPerPixel; ++j) out.w[p * kWordsPerPixel + j] = in.w[(P - 1 - p) * kWordsPerPixel + j];
  } else {
    constexpr int P = 16 * G / N;
    out.clear();
#pragma unroll
    for (int p = 0; p < P; ++p)
#pragma unroll
      for (int b = 0; b < N; ++b) out.put(p * N + b, in.byte((P - 1 - p) * N + b));
  }
}

// `wide`: the same mapping as flip_words_kernel, with more in flight and contiguous
// warp instructions. 16-byte words (G = 1): each thread moves kFlipRows rows, all
// loads before any store. 48-byte words (G = 3): a warp whose 32 words lie inside the
// row reads and writes them through a shared stage (warp_stage.cuh), so each global
// instruction covers 512 contiguous bytes instead of 32 chunks 48 bytes apart.
template <int N>
__global__ void __launch_bounds__(GeometryTuning::kFlipThreads)
    flip_wide_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst, std::size_t dst_pitch,
                     long long words, int height, bool mirror_y) {
  constexpr int G = (N % 16 == 0) ? N / 16 : (16 % N == 0) ? 1 : 3;  // 16-byte chunks per word
  constexpr int kRows = G == 1 ? GeometryTuning::kFlipRows : 1;
  constexpr int kWarpsPerBlock = GeometryTuning::kFlipThreads / 32;
  __shared__ uint4 stage[G == 1 ? 1 : kWarpsPerBlock * 32 * G];
  const int lane = static_cast<int>(threadIdx.x % 32);
  const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long warp_k0 = k - lane;
  const bool warp_whole = G > 1 && warp_k0 + 32 <= words;  // the same in every lane
  if (k >= words) return;                                     // never in a whole warp
  const WarpStage<G> warp_stage{stage + (G == 1 ? 0 : (threadIdx.x / 32) * 32 * G)};
  for (long long y0 = static_cast<long long>(blockIdx.y) * kRows; y0 < height;
       y0 += static_cast<long long>(gridDim.y) * kRows) {
    ByteWords<4 * G> in[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const long long y = y0 + r;
      if (y >= height) break;
      const long long sy = mirror_y ? height - 1 - y : y;
      const unsigned char* s = src + static_cast<std::size_t>(sy) * src_pitch;
      if (warp_whole)
        warp_stage.load(s + (words - 32 - warp_k0) * 16 * G, lane, 31 - lane, in[r]);
      else
#pragma unroll
        for (int c = 0; c < G; ++c) in[r].load16(c, s + (words - 1 - k) * 16 * G + 16 * c);
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      const long long y = y0 + r;
      if (y >= height) break;
      ByteWords<4 * G> out;
      reverse_pixels<N, G>(in[r], out);
      unsigned char* d = dst + static_cast<std::size_t>(y) * dst_pitch;
      if (warp_whole)
        warp_stage.store(d + warp_k0 * 16 * G, lane, lane, out);
      else
#pragma unroll
        for (int c = 0; c < G; ++c) out.store16(c, d + k * 16 * G + 16 * c);
    }
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

bool launch_flip_vectorized(const ImageView& src, const ImageView& dst, bool mirror_x, bool mirror_y, bool wide,
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
    const auto* s = static_cast<const unsigned char*>(src.data);
    auto* d = static_cast<unsigned char*>(dst.data);
    if (wide) {
      constexpr int kRows = kWordBytes == 16 ? GeometryTuning::kFlipRows : 1;
      const dim3 grid(grid_x(blocks_for(words, kThreads), "flip_wide_kernel"), grid_y(blocks_for(src.height, kRows)));
      flip_wide_kernel<N><<<grid, kThreads, 0, ctx.stream>>>(s, src.pitch, d, dst.pitch, words, src.height, mirror_y);
      return;
    }
    const dim3 grid(grid_x(blocks_for(words, kThreads), "flip_words_kernel"), grid_y(src.height));
    flip_words_kernel<N, A><<<grid, kThreads, 0, ctx.stream>>>(s, src.pitch, d, dst.pitch, words, src.height,
                                                               mirror_y);
  });
  check_launch("flip_words_kernel", ctx);
  return true;
}

}  // namespace gpufilter::kernels
