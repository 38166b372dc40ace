#pragma once
// separable_strip_imma's horizontal pass on the integer tensor cores (ImmaPasses::Both,
// the kernel's kIntegerRows): the vertical sums kept as 24-bit integers in 12 byte planes
// in shared memory ([channel][byte][row][column], rows `stride` bytes apart), and each
// tile of 16 output columns by 8 rows the products of the horizontal factor's banded
// matrix with the planes' 32-column windows (docs/techniques/convolution.md, "Both passes
// on integer tensor cores").
#include "common/tensor_core.cuh"
#include "convolution/separable_strip_imma_tuning.hpp"

namespace gpufilter::kernels::strip_imma {

using Tuning = SeparableStripImmaTuning;

// The planes' columns past the band's halo (kCols .. kStride - 1), which the last tiles'
// windows read with taps of 0, set to zero by the block's threads once.
template <int kCols, int kStride>
__device__ __forceinline__ void zero_plane_tails(unsigned char* planes, int tid) {
  constexpr int kTail = kStride - kCols;
  if constexpr (kTail > 0)
    for (int i = tid; i < 12 * Tuning::kRows * kTail; i += Tuning::kThreads)
      planes[(i / kTail) * kStride + kCols + i % kTail] = 0;
}

// kIntegerRows: a lane's four outputs' vertical sums into the byte planes ([channel][byte]
// [row][column], rows `stride` bytes apart), as the horizontal products take them: 24-bit
// integers, the sums as they are (level x 2^16, below 2^24) and premultiplied colours
// rounded to 2^-8 of colour x alpha (below 2^24). Outputs 2h and 2h + 1 are adjacent
// columns (col, col + 1) of row g + 8h: one 16-bit store a byte.
template <bool kPremultiplied>
__device__ __forceinline__ void store_planes(const unsigned (&total)[4][4], unsigned char* planes, int stride, int g,
                                             int col) {
  constexpr int K = Tuning::kRows;
#pragma unroll
  for (int ch = 0; ch < 4; ++ch) {
    unsigned v[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = kPremultiplied && ch < 3 ? (total[j][ch] + 128u) >> 8 : total[j][ch];
#pragma unroll
    for (int b = 0; b < 3; ++b)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const unsigned pair = __byte_perm(v[2 * h], v[2 * h + 1], static_cast<unsigned>(b | ((4 + b) << 4)));
        *reinterpret_cast<unsigned short*>(planes + ((ch * 3 + b) * K + g + 8 * h) * stride + col) =
            static_cast<unsigned short>(pair);
      }
  }
}

// kIntegerRows: the horizontal pass of a tile, 16 output columns from band column x0 by the
// 8 rows from row0 of the step. Per channel the lane's B fragments are its row's (g) four
// bytes at window columns 4t and 16 + 4t of each chunk, one word of each plane; the
// products give its outputs ([output][channel]) at columns x0 + g (outputs 0, 1) and
// x0 + g + 8 (2, 3), rows row0 + 2t (0, 2) and row0 + 2t + 1 (1, 3), in levels
// (premultiplied colours: colour x alpha / 255).
template <int R, bool kPremultiplied>
__device__ __forceinline__ void horizontal_tile(const unsigned char* planes, int stride, const unsigned* fragments,
                                                int row0, int x0, int lane, float (&o)[4][4]) {
  constexpr int K = Tuning::kRows;
  constexpr int kChunks = Tuning::chunks(R);
  const int g = lane >> 2, t = lane & 3;
#pragma unroll
  for (int ch = 0; ch < 4; ++ch) {
    // Sums of the products by the shift they take: tap byte (high 1, low 0) plus sum byte.
    int s24[4] = {0, 0, 0, 0}, s16[4] = {0, 0, 0, 0}, s8[4] = {0, 0, 0, 0}, s0[4] = {0, 0, 0, 0};
#pragma unroll
    for (int chunk = 0; chunk < kChunks; ++chunk) {
      unsigned hi[4], lo[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        hi[r] = fragments[chunk * Tuning::kThreads + r * 32 + lane];
        lo[r] = fragments[chunk * Tuning::kThreads + 128 + r * 32 + lane];
      }
      const unsigned char* const window =
          planes + (ch * 3 * K + row0 + g) * stride + x0 + chunk * kImmaChunkRows + 4 * t;
      unsigned b[3][2];
#pragma unroll
      for (int byte = 0; byte < 3; ++byte) {
        b[byte][0] = *reinterpret_cast<const unsigned*>(window + byte * K * stride);
        b[byte][1] = *reinterpret_cast<const unsigned*>(window + byte * K * stride + 16);
      }
      tc::mma_16x8x32_u8(s24, hi, b[2][0], b[2][1]);
      tc::mma_16x8x32_u8(s16, hi, b[1][0], b[1][1]);
      tc::mma_16x8x32_u8(s16, lo, b[2][0], b[2][1]);
      tc::mma_16x8x32_u8(s8, hi, b[0][0], b[0][1]);
      tc::mma_16x8x32_u8(s8, lo, b[1][0], b[1][1]);
      tc::mma_16x8x32_u8(s0, lo, b[0][0], b[0][1]);
    }
    // The sum is upper x 2^16 + lower; each part below 2^32 (taps summing to 2^16, sums
    // below 2^24, at most 64 products a part). Units: 2^-32 level; premultiplied colours
    // 2^-24 of colour x alpha.
    constexpr float kLevel = 1.0f / 4294967296.0f;
    const float scale = kPremultiplied && ch < 3 ? 1.0f / (16777216.0f * 255.0f) : kLevel;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const unsigned upper = static_cast<unsigned>(s16[j]) + (static_cast<unsigned>(s24[j]) << 8);
      const unsigned lower = static_cast<unsigned>(s0[j]) + (static_cast<unsigned>(s8[j]) << 8);
      o[j][ch] = fmaf(__uint2float_rn(upper), 65536.0f * scale, __uint2float_rn(lower) * scale);
    }
  }
}

}  // namespace gpufilter::kernels::strip_imma
