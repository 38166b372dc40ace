#pragma once
// The tensor-core separable kernel: one rank-1 mask on 8-bit gray, RGB and RGBA, both
// passes as half-precision matrix products with float sums (docs/techniques/
// convolution.md, "8-bit masks on tensor cores: separable_mma"). A block owns a band of
// kBand output columns and walks down it 16 rows a step:
//   1. load: the step's tile (16 + 2H rows of the band and its H halo columns either
//      side, H = SeparableMmaTuning::halo) into shared memory as a plane of halves a
//      channel, each pixel read once, through the border (premultiplied RGBA: the
//      colours times their alpha, split into a high and a low half);
//   2. vertical: a warp a block of 8 columns and a channel: the 16 output rows are the
//      product of the mask's 16 x 16S banded matrix of y taps (in registers) with the
//      16S x 8 input block (ldmatrix, transposed), kept as a high and a low half;
//   3. horizontal: a warp 16 output columns: the product of the sums' 16 x 16S block with
//      the 16S x 8 banded matrices of x taps (in registers), then the output rule.
// Halves hold 11 bits: each weight is split into a high and a low half and each sum into
// two halves again, so the products keep about 22 bits, what the exact contract needs
// of the float reference (a lone half missed by a level in 2.6% of samples).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/border_runtime.cuh"
#include "common/pixel.cuh"
#include "common/tensor_core.cuh"
#include "convolution/filter2d_output.cuh"
#include "convolution/separable_mma_tuning.hpp"

namespace gpufilter::kernels::mma {

using Tuning = SeparableMmaTuning;
constexpr int kHalo = Tuning::halo(Tuning::kKSteps);

// The mask's two factors, centred in 2H + 1 taps (a smaller mask's outer taps are 0).
struct MmaTaps {
  float x[2 * kHalo + 1];
  float y[2 * kHalo + 1];
};

__device__ __forceinline__ float tap_or_zero(const float (&taps)[2 * kHalo + 1], int t) {
  return t >= 0 && t <= 2 * kHalo ? taps[t] : 0.0f;
}

// v as a high half and the half of what it leaves.
__device__ __forceinline__ void split_half(float v, __half& hi, __half& lo) {
  hi = __float2half_rn(v);
  lo = __float2half_rn(v - __half2float(hi));
}

// The high and low fragments of two weights, at the lower and higher index of a pair.
__device__ __forceinline__ void split_pair(float w0, float w1, unsigned& hi, unsigned& lo) {
  __half h0, l0, h1, l1;
  split_half(w0, h0, l0);
  split_half(w1, h1, l1);
  hi = tc::pack_halves(h0, h1);
  lo = tc::pack_halves(l0, l1);
}

// Byte i of four pixels' C * 4 bytes.
template <int C>
__device__ __forceinline__ unsigned quad_byte(const unsigned (&words)[C], int i) {
  return (words[i >> 2] >> (8 * (i & 3))) & 0xffu;
}

// Four pixels of row y from column x, through the border, as C words (byte i: channel
// i % C of pixel i / C). Inside the image a row of them moves in whole words.
template <int C>
__device__ __forceinline__ void load_quad(const PitchedView<std::uint8_t, C>& src, int y, int x,
                                          const BorderReads& border, const Pixel<std::uint8_t, C>& constant,
                                          unsigned (&words)[C]) {
  const bool y_inside = y >= 0 && y < src.height;
  const int sy = y_inside ? y : border_map(y, src.height, border.y);
  const bool row_constant = !y_inside && border.constant;
  const unsigned char* const row = src.data + static_cast<std::size_t>(sy) * src.pitch;
  if (!row_constant && x >= 0 && x + 4 <= src.width) {
    const unsigned char* const p = row + static_cast<std::size_t>(x) * C;
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    if (C == 4 && (address & 15) == 0) {
      const uint4 v = *reinterpret_cast<const uint4*>(p);
      const unsigned all[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
      for (int i = 0; i < C; ++i) words[i] = all[i];
      return;
    }
    if ((address & 3) == 0) {
#pragma unroll
      for (int i = 0; i < C; ++i) words[i] = reinterpret_cast<const unsigned*>(p)[i];
      return;
    }
#pragma unroll
    for (int i = 0; i < C; ++i) words[i] = 0;
#pragma unroll
    for (int i = 0; i < 4 * C; ++i) words[i >> 2] |= static_cast<unsigned>(p[i]) << (8 * (i & 3));
    return;
  }
#pragma unroll
  for (int i = 0; i < C; ++i) words[i] = 0;
#pragma unroll
  for (int px = 0; px < 4; ++px) {
    const int xx = x + px;
    const bool x_inside = xx >= 0 && xx < src.width;
    const int sx = x_inside ? xx : border_map(xx, src.width, border.x);
    const bool is_constant = row_constant || (!x_inside && border.constant);
#pragma unroll
    for (int ch = 0; ch < C; ++ch) {
      const unsigned b = is_constant ? constant.c[ch] : row[static_cast<std::size_t>(sx) * C + ch];
      const int i = px * C + ch;
      words[i >> 2] |= b << (8 * (i & 3));
    }
  }
}

// Four consecutive halves of a plane's row, 8-byte aligned.
__device__ __forceinline__ void store_halves(__half* at, __half h0, __half h1, __half h2, __half h3) {
  *reinterpret_cast<uint2*>(at) = make_uint2(tc::pack_halves(h0, h1), tc::pack_halves(h2, h3));
}

template <int C, bool kPremultiplied>
__global__ void __launch_bounds__(Tuning::kThreads, Tuning::min_blocks(C))
    separable_mma_kernel(PitchedView<std::uint8_t, C> src, PitchedView<std::uint8_t, C> dst,
                         const __grid_constant__ MmaTaps taps, BorderReads border, Pixel<std::uint8_t, C> constant,
                         Filter2dOutput out, bool convex) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int S = Tuning::kKSteps;
  constexpr int H = kHalo;
  constexpr int M = Tuning::kStepRows;
  constexpr int kRows = Tuning::tile_rows(S);
  constexpr int kCols = Tuning::tile_columns(S);
  constexpr int kStride = Tuning::row_stride(S);
  constexpr int kPlanes = Tuning::input_planes(C, kPremultiplied);
  constexpr int kQuads = kCols / 4;   // a row's quads of pixels in the load
  constexpr int kGroups = kCols / 8;  // a row's blocks of 8 columns in the vertical pass
  static_assert(S == 2, "one ldmatrix.x4 reads a block's 32 input rows");
  static_assert(kCols % 8 == 0 && (kStride / 8) % 2 == 1, "blocks of 8 columns; rows in different banks");
  // The shared memory (SeparableMmaTuning::shared_bytes): the input planes [kPlanes][kRows]
  // [kStride] (premultiplied RGBA: R, G, B high, A, then R, G, B low), then the vertical
  // sums [C][high, low][M][kStride].
  extern __shared__ __align__(16) unsigned char shared[];
  __half* const input = reinterpret_cast<__half*>(shared);
  __half* const sums = input + kPlanes * kRows * kStride;

  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const int g = lane >> 2;  // a fragment's row (A, accumulators) or column (B)
  const int q = lane & 3;   // its pair of columns (A, accumulators) or rows (B)

  // The taps as each lane's operand fragments, 8 uint4 a lane in shared memory after
  // the sums (kept in registers they cost the loops spills): fragment f of lane l at
  // fragments[f * 32 + l], written by warp 0; the first step's barrier publishes them.
  //   f = s (0, 1), 2 + s: the y taps as the vertical pass's A operand, high and low halves:
  //     A[i][k] = y[k - i], output row i, input row k of the tile; register r of k-step s
  //     holds row g + 8(r & 1), k = 16s + 2q + 8(r >> 1) and k + 1.
  //   f = 4 + 2j + s: the x taps as the horizontal pass's B operand for n-tile j (output
  //     columns 8j to 8j + 7 of the warp's 16), high then low halves: B[k][n] = x[k - 8j - n],
  //     input column k of the warp's window; register r holds column g, k = 16s + 2q + 8r and k + 1.
  uint4* const fragments = reinterpret_cast<uint4*>(sums + 2 * C * M * kStride);
  if (warp == 0) {
#pragma unroll
    for (int s = 0; s < S; ++s) {
      unsigned hi[4], lo[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int i = g + 8 * (r & 1), k = 16 * s + 2 * q + 8 * (r >> 1);
        split_pair(tap_or_zero(taps.y, k - i), tap_or_zero(taps.y, k + 1 - i), hi[r], lo[r]);
      }
      fragments[s * 32 + lane] = make_uint4(hi[0], hi[1], hi[2], hi[3]);
      fragments[(2 + s) * 32 + lane] = make_uint4(lo[0], lo[1], lo[2], lo[3]);
    }
#pragma unroll
    for (int j = 0; j < 2; ++j)
#pragma unroll
      for (int s = 0; s < S; ++s) {
        unsigned hi[2], lo[2];
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          const int t = 16 * s + 2 * q + 8 * r - 8 * j - g;
          split_pair(tap_or_zero(taps.x, t), tap_or_zero(taps.x, t + 1), hi[r], lo[r]);
        }
        fragments[(4 + 2 * j + s) * 32 + lane] = make_uint4(hi[0], hi[1], lo[0], lo[1]);
      }
  }
  const auto fragment = [&](int f, unsigned(&r)[4]) {
    const uint4 v = fragments[f * 32 + lane];
    r[0] = v.x, r[1] = v.y, r[2] = v.z, r[3] = v.w;
  };

  const int band_x = static_cast<int>(blockIdx.x) * Tuning::kBand;
  const bool needs_centre = out.rule == FilterOutput::Unsharp || out.keep_alpha;
  // Convex masks with the Linear rule and no bias (blur, box): plain_pixel.
  const bool plain = convex && out.rule == FilterOutput::Linear && out.bias == 0.0f && !out.keep_alpha;
  // Premultiplied colours go in as colour * alpha / 256 (exact in two halves), the
  // reference's colour * alpha / M scaled by M / 256.
  constexpr float kColourScale = 256.0f / 255.0f;
  constexpr int kStripRows = M * Tuning::kStepsPerStrip;

  // The block's steps: strips of kStripRows rows (a stride of gridDim.y strips), M rows a
  // step. The next step's tile is read into registers while this step computes (its
  // global reads in flight behind the products) and written to shared memory after.
  const auto strip_end = [&](int y0) { return min(src.height, (y0 / kStripRows + 1) * kStripRows); };
  const auto next_step = [&](int y0) {
    return y0 + M < strip_end(y0) ? y0 + M : (y0 / kStripRows + static_cast<int>(gridDim.y)) * kStripRows;
  };
  constexpr int kTileQuads = kRows * kQuads;
  constexpr int kLoads = (kTileQuads + Tuning::kThreads - 1) / Tuning::kThreads;  // a thread's quads a step
  unsigned fetched[kLoads][C];
  const auto fetch = [&](int y0) {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int u = static_cast<int>(threadIdx.x) + i * Tuning::kThreads;
      const int r = u / kQuads, quad = u - r * kQuads;
      if (u < kTileQuads) load_quad<C>(src, y0 - H + r, band_x - H + 4 * quad, border, constant, fetched[i]);
    }
  };
  // 1. The tile, each quad of pixels as halves into the planes.
  const auto put = [&]() {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int u = static_cast<int>(threadIdx.x) + i * Tuning::kThreads;
      if (u >= kTileQuads) continue;
      const int r = u / kQuads, quad = u - r * kQuads;
      const unsigned(&words)[C] = fetched[i];
      __half* const at = input + r * kStride + 4 * quad;
      if constexpr (kPremultiplied) {
        __half hi[3][4], lo[3][4];
#pragma unroll
        for (int px = 0; px < 4; ++px) {
          const unsigned a = quad_byte<C>(words, 4 * px + 3);
#pragma unroll
          for (int ch = 0; ch < 3; ++ch)
            split_half(static_cast<float>(quad_byte<C>(words, 4 * px + ch) * a) * (1.0f / 256.0f), hi[ch][px],
                       lo[ch][px]);
        }
#pragma unroll
        for (int ch = 0; ch < 3; ++ch) {
          store_halves(at + ch * kRows * kStride, hi[ch][0], hi[ch][1], hi[ch][2], hi[ch][3]);
          store_halves(at + (4 + ch) * kRows * kStride, lo[ch][0], lo[ch][1], lo[ch][2], lo[ch][3]);
        }
        store_halves(at + 3 * kRows * kStride, __ushort2half_rn(quad_byte<C>(words, 3)),
                     __ushort2half_rn(quad_byte<C>(words, 7)), __ushort2half_rn(quad_byte<C>(words, 11)),
                     __ushort2half_rn(quad_byte<C>(words, 15)));
      } else {
#pragma unroll
        for (int ch = 0; ch < C; ++ch)
          store_halves(at + ch * kRows * kStride, __ushort2half_rn(quad_byte<C>(words, ch)),
                       __ushort2half_rn(quad_byte<C>(words, C + ch)), __ushort2half_rn(quad_byte<C>(words, 2 * C + ch)),
                       __ushort2half_rn(quad_byte<C>(words, 3 * C + ch)));
      }
    }
  };

  int y0 = static_cast<int>(blockIdx.y) * kStripRows;
  if (y0 < src.height) fetch(y0);
  for (; y0 < src.height; y0 = next_step(y0)) {
    {
      const int y_end = strip_end(y0);
      put();
      __syncthreads();
      if (next_step(y0) < src.height) fetch(next_step(y0));
      // 2. Vertical: a warp a (block of 8 columns, channel); lane l gives the address of
      // the tile's row l (ldmatrix.x4: matrix l / 8, its row l % 8).
      for (int t = warp; t < kGroups * C; t += Tuning::kWarps) {
        const int ch = t / kGroups, n8 = t - ch * kGroups;
        // Two chains of products (the high terms, the low ones), so that each waits on
        // half as many before it.
        float d[4] = {0.0f, 0.0f, 0.0f, 0.0f}, d_low[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        unsigned a_hi[S][4], a_lo[S][4], b[4];
#pragma unroll
        for (int k_step = 0; k_step < S; ++k_step) {
          fragment(k_step, a_hi[k_step]);
          fragment(2 + k_step, a_lo[k_step]);
        }
        tc::load_matrices_x4_transposed(b, tc::shared_address(input + (ch * kRows + lane) * kStride + 8 * n8));
        tc::mma_16x8x16(d, a_hi[0], b[0], b[1]);
        tc::mma_16x8x16(d_low, a_lo[0], b[0], b[1]);
        tc::mma_16x8x16(d, a_hi[1], b[2], b[3]);
        tc::mma_16x8x16(d_low, a_lo[1], b[2], b[3]);
        if (kPremultiplied && ch < 3) {
          tc::load_matrices_x4_transposed(
              b, tc::shared_address(input + ((4 + ch) * kRows + lane) * kStride + 8 * n8));
          tc::mma_16x8x16(d_low, a_hi[0], b[0], b[1]);
          tc::mma_16x8x16(d_low, a_hi[1], b[2], b[3]);
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) d[e] += d_low[e];
        __half* const hi_plane = sums + 2 * ch * M * kStride;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          __half h0, l0, h1, l1;
          split_half(d[2 * h], h0, l0);
          split_half(d[2 * h + 1], h1, l1);
          const int offset = (g + 8 * h) * kStride + 8 * n8 + 2 * q;
          *reinterpret_cast<unsigned*>(hi_plane + offset) = tc::pack_halves(h0, h1);
          *reinterpret_cast<unsigned*>(hi_plane + M * kStride + offset) = tc::pack_halves(l0, l1);
        }
      }
      __syncthreads();
      // 3. Horizontal: warp w's output columns 16w to 16w + 15 of the band, every channel.
      // Gray: the low terms in a chain of their own (RGB and RGBA have a chain a channel).
      constexpr int kChains = C == 1 ? 2 : 1;
      float o[C][2][4], o_low[C][2][4];
      const int a_row = (lane & 7) + 8 * ((lane >> 3) & 1), a_col = 16 * warp + 8 * (lane >> 4);
      unsigned x_taps[2][S][4];  // [j][s]: high halves in registers 0 and 1, low in 2 and 3
#pragma unroll
      for (int j = 0; j < 2; ++j)
#pragma unroll
        for (int k_step = 0; k_step < S; ++k_step) fragment(4 + 2 * j + k_step, x_taps[j][k_step]);
#pragma unroll
      for (int ch = 0; ch < C; ++ch) {
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) o[ch][j][e] = o_low[ch][j][e] = 0.0f;
        const __half* const hi_plane = sums + 2 * ch * M * kStride;
#pragma unroll
        for (int s = 0; s < S; ++s) {
          unsigned ah[4], al[4];
          tc::load_matrices_x4(ah, tc::shared_address(hi_plane + a_row * kStride + a_col + 16 * s));
          tc::load_matrices_x4(al, tc::shared_address(hi_plane + (M + a_row) * kStride + a_col + 16 * s));
#pragma unroll
          for (int j = 0; j < 2; ++j) {
            float(&low)[4] = kChains == 2 ? o_low[ch][j] : o[ch][j];
            const unsigned(&b)[4] = x_taps[j][s];
            tc::mma_16x8x16(o[ch][j], ah, b[0], b[1]);
            tc::mma_16x8x16(low, ah, b[2], b[3]);
            tc::mma_16x8x16(low, al, b[0], b[1]);
          }
        }
        if constexpr (kChains == 2)
#pragma unroll
          for (int j = 0; j < 2; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) o[ch][j][e] += o_low[ch][j][e];
      }
      // The outputs: accumulator e of n-tile j is row g + 8(e >> 1), column 8j + 2q + (e & 1).
#pragma unroll
      for (int j = 0; j < 2; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int row = g + 8 * (e >> 1), col = 16 * warp + 8 * j + 2 * q + (e & 1);
          const int y = y0 + row, x = band_x + col;
          if (y >= y_end || x >= dst.width) continue;
          Accum<C> sum;
#pragma unroll
          for (int ch = 0; ch < C; ++ch) sum.c[ch] = o[ch][j][e];
          if constexpr (kPremultiplied)
#pragma unroll
            for (int ch = 0; ch < 3; ++ch) sum.c[ch] *= kColourScale;
          Pixel<std::uint8_t, C> px;
          if (plain) {
            px = plain_pixel<std::uint8_t, C>(sum, out);
          } else {
            Accum<C> centre = zero_accum<C>();
            if (needs_centre) {
              const __half* const at = input + (row + H) * kStride + col + H;
#pragma unroll
              for (int ch = 0; ch < C; ++ch) centre.c[ch] = __half2float(at[ch * kRows * kStride]);
              if constexpr (kPremultiplied)
#pragma unroll
                for (int ch = 0; ch < 3; ++ch)
                  centre.c[ch] = (centre.c[ch] + __half2float(at[(4 + ch) * kRows * kStride])) * kColourScale;
            }
            const Accum<C> pixel_sums[1] = {sum};
            px = filter2d_pixel<std::uint8_t, C, 1>(pixel_sums, centre, out);
          }
          dst.at(x, y) = px;
        }
      // The next step's tile goes where the centres were read.
      if (needs_centre) __syncthreads();
    }
  }
#else
  __trap();  // launched only where the GPU has the tensor cores (separable_mma_runs)
#endif
}

}  // namespace gpufilter::kernels::mma
