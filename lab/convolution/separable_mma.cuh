#pragma once
// The tensor-core separable kernel (the lab's): one rank-1 mask on 8-bit gray, RGB and
// RGBA, both passes as half-precision matrix products with float sums (docs/techniques/
// convolution.md, "8-bit masks on tensor cores: separable_mma"). A block owns a band of
// kBand output columns and walks down it 16 rows a step:
//   1. load: the rows the step adds to a ring of 16 + 2H rows (H = SeparableMmaTuning::
//      halo) of the band and its H halo columns either side, through the border, into
//      shared memory as a plane of halves a channel (premultiplied RGBA: the colours
//      times their alpha, as a high and a low plane);
//   2. vertical: a warp a block of 8 columns and a channel: the 16 output rows are the
//      product of the mask's 16 x 16S banded matrix of y taps with the 16S x 8 input block
//      (ldmatrix, transposed), kept as an integer and a scaled fraction, halves both;
//   3. horizontal: a warp 16 output columns: the product of the sums' 16 x 16S block with
//      the 16S x 8 banded matrices of x taps, then the output rule.
// Halves hold 11 bits: each weight is split into a high and a low half and each sum into
// two halves again, so the products keep about 22 bits, what the exact contract needs
// of the float reference (a lone half missed by a level in 2.6% of samples).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/border_runtime.cuh"
#include "common/pixel.cuh"
#include "convolution/filter2d_output.cuh"
#include "convolution/separable_strip.cuh"
#include "common/tensor_core.cuh"
#include "lab/convolution/separable_mma_tuning.hpp"

namespace gpufilter::lab::mma {

using namespace kernels;  // the library's pixels, borders and output rule
using Tuning = SeparableMmaTuning;
constexpr int kHalo = Tuning::halo(Tuning::kKSteps);

// The mask's two factors centred in 2H + 1 taps, as the strip kernel takes them
// (strip::taps_of; its y_sum is not used here).
using MmaTaps = strip::StripTaps<kHalo>;

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

// Conversions without the conversion unit (a quarter of the arithmetic's rate), as the
// 8-bit kernels do (pixel.cuh's magic number):
//  - bytes to halves: the half 1024 + b has b in its low 8 bits (bits 0x6400 | b), so two
//    bytes become a pair of halves with a byte permute, a mask and one subtraction;
//  - float sums to halves: v + kHalfMagic rounds v to an integer I (|v| < 2^22) and holds
//    0x6600 + I in its low 16 bits, the half 1536 + I for -512 <= I <= 512, so a byte
//    permute and one subtraction make a pair of halves of I.
constexpr unsigned kHalfBits1024 = 0x64006400u;  // 1024, 1024
constexpr float kHalfMagic = 12582912.0f + 26112.0f;  // 1.5 * 2^23 + 0x6600

__device__ __forceinline__ unsigned sub_halves(unsigned a, unsigned b) {
  unsigned d;
  asm("sub.rn.f16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
__device__ __forceinline__ unsigned mul_halves(unsigned a, unsigned b) {
  unsigned d;
  asm("mul.rn.f16x2 %0, %1, %2;\n" : "=r"(d) : "r"(a), "r"(b));
  return d;
}

// Byte i0 of w0 and byte i1 of w1 (0 to 3) as a pair of exact halves (w0's low).
__device__ __forceinline__ unsigned bytes_to_halves(unsigned w0, int i0, unsigned w1, int i1) {
  const unsigned pair = __byte_perm(w0, w1, i0 | ((i1 + 4) << 8));
  return sub_halves((pair & 0x00ff00ffu) | kHalfBits1024, kHalfBits1024);
}

// Bytes i0 and i1 of four pixels' C words (byte i: channel i % C of pixel i / C) as a pair
// of exact halves.
template <int C>
__device__ __forceinline__ unsigned quad_bytes_to_halves(const unsigned (&words)[C], int i0, int i1) {
  return bytes_to_halves(words[i0 >> 2], i0 & 3, words[i1 >> 2], i1 & 3);
}

// Two sums as the pair of halves of their nearest integers (high), and the pair of
// halves of 1024 times what those leave (low): |v| <= 512 (SeparableMmaTuning::kMaxAbsTapSum).
__device__ __forceinline__ void split_sums(float v0, float v1, unsigned& high, unsigned& low) {
  constexpr unsigned kHalfBits1536 = 0x66006600u;
  const float t0 = v0 + kHalfMagic, t1 = v1 + kHalfMagic;
  const float u0 = fmaf(v0 - (t0 - kHalfMagic), 1024.0f, kHalfMagic);
  const float u1 = fmaf(v1 - (t1 - kHalfMagic), 1024.0f, kHalfMagic);
  high = sub_halves(__byte_perm(__float_as_uint(t0), __float_as_uint(t1), 0x5410), kHalfBits1536);
  low = sub_halves(__byte_perm(__float_as_uint(u0), __float_as_uint(u1), 0x5410), kHalfBits1536);
}

// Two adjacent output pixels of the plain rule (a convex mask: blur, box) from their sums
// v[pixel][channel] (premultiplied: colour * alpha / 256 for the colours), as plain_pixel
// makes them: the colours divided by the alpha (scaled by 256 / alpha, with the
// approximate reciprocal), capped at 255, rounded; stored as one access where aligned.
template <int C, bool kPremultiplied>
__device__ __forceinline__ void store_pixel_pair(unsigned char* at, const float (&v)[2][C], const Filter2dOutput& out) {
  unsigned bits[2][C];
#pragma unroll
  for (int e = 0; e < 2; ++e) {
    float f[C];
#pragma unroll
    for (int ch = 0; ch < C; ++ch) f[ch] = v[e][ch];
    if constexpr (kPremultiplied) {
      f[3] = fminf(fmaxf(f[3], 0.0f), 255.0f);
      const float scale = f[3] > out.min_alpha ? __fdividef(256.0f, f[3]) : 0.0f;
#pragma unroll
      for (int ch = 0; ch < 3; ++ch) f[ch] = fminf(f[ch] * scale, 255.0f);
    }
#pragma unroll
    for (int ch = 0; ch < C; ++ch) bits[e][ch] = __float_as_uint(f[ch] + kMagic);  // the add rounds
  }
  if constexpr (C == 4) {
    unsigned word[2];  // a pixel's four low bytes
#pragma unroll
    for (int e = 0; e < 2; ++e)
      word[e] = __byte_perm(__byte_perm(bits[e][0], bits[e][1], 0x0040), __byte_perm(bits[e][2], bits[e][3], 0x0040),
                            0x5410);
    if ((reinterpret_cast<std::uintptr_t>(at) & 7) == 0) {
      *reinterpret_cast<uint2*>(at) = make_uint2(word[0], word[1]);
    } else {
      reinterpret_cast<unsigned*>(at)[0] = word[0];
      reinterpret_cast<unsigned*>(at)[1] = word[1];
    }
  } else if constexpr (C == 1) {
    const unsigned short pair = static_cast<unsigned short>(__byte_perm(bits[0][0], bits[1][0], 0x0040));
    if ((reinterpret_cast<std::uintptr_t>(at) & 1) == 0) {
      *reinterpret_cast<unsigned short*>(at) = pair;
    } else {
      at[0] = static_cast<unsigned char>(pair);
      at[1] = static_cast<unsigned char>(pair >> 8);
    }
  } else {
#pragma unroll
    for (int e = 0; e < 2; ++e)
#pragma unroll
      for (int ch = 0; ch < C; ++ch) at[e * C + ch] = static_cast<unsigned char>(bits[e][ch]);
  }
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
  constexpr int kPlane = kRows * kStride;
  constexpr int kPlanes = Tuning::input_planes(C, kPremultiplied);
  constexpr int kQuads = kCols / 4;   // a row's quads of pixels in the load
  constexpr int kGroups = kCols / 8;  // a row's blocks of 8 columns in the vertical pass
  static_assert(S == 2 && kRows == 32, "one ldmatrix.x4 reads a block's 32 input rows, a ring of 32");
  static_assert(kCols % 8 == 0 && (kStride / 8) % 2 == 1, "blocks of 8 columns; rows in different banks");
  // The shared memory (SeparableMmaTuning::shared_bytes): the input planes [kPlanes][kRows]
  // [kStride] (premultiplied RGBA: R, G, B high, A, then R, G, B low), a ring of rows:
  // image row y in row y % 32, so that a step reads only the 16 rows the last one did not;
  // then the vertical sums [C][high, low][M][kStride]; then the taps' fragments.
  extern __shared__ __align__(16) unsigned char shared[];
  __half* const input = reinterpret_cast<__half*>(shared);
  __half* const sums = input + kPlanes * kPlane;
  const auto ring_row = [](int y) { return y & (kRows - 1); };

  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int warp = static_cast<int>(threadIdx.x) >> 5;
  const int g = lane >> 2;  // a fragment's row (A, accumulators) or column (B)
  const int q = lane & 3;   // its pair of columns (A, accumulators) or rows (B)

  // The taps as each lane's operand fragments, 12 uint4 a lane in shared memory after the
  // sums (SeparableMmaTuning::kFragmentBytes; kept in registers they cost the loops
  // spills): fragment f of lane l at fragments[f * 32 + l], written by warp 0; the first
  // step's barrier publishes them.
  //   f = s (0, 1), 2 + s: the y taps as the vertical pass's A operand, high and low halves:
  //     A[i][k] = y[k - i], output row i, input row k of the tile; register r of k-step s
  //     holds row g + 8(r & 1), k = 16s + 2q + 8(r >> 1) and k + 1.
  //   f = 4 + 2j + s: the x taps as the horizontal pass's B operand for n-tile j (output
  //     columns 8j to 8j + 7 of the warp's 16), high then low halves: B[k][n] = x[k - 8j - n],
  //     input column k of the warp's window; register r holds column g, k = 16s + 2q + 8r and k + 1.
  //     Registers 2 and 3 of f = 8 + 2j + s: the high halves over 1024, for the sums' low
  //     halves (1024 times what the high ones leave).
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
        unsigned hi[2], lo[2], scaled[2];
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          const int t = 16 * s + 2 * q + 8 * r - 8 * j - g;
          split_pair(tap_or_zero(taps.x, t), tap_or_zero(taps.x, t + 1), hi[r], lo[r]);
          scaled[r] = mul_halves(hi[r], 0x14001400u);  // 1/1024, 1/1024
        }
        fragments[(4 + 2 * j + s) * 32 + lane] = make_uint4(hi[0], hi[1], lo[0], lo[1]);
        fragments[(8 + 2 * j + s) * 32 + lane] = make_uint4(0u, 0u, scaled[0], scaled[1]);
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
  // step. A strip's first step reads its 32 rows (y0 - H to y0 + M + H - 1), each later
  // one the 16 rows below. The next step's rows are read into registers while this step
  // computes (their global reads in flight behind the products) and put in the ring after.
  const auto strip_end = [&](int y0) { return min(src.height, (y0 / kStripRows + 1) * kStripRows); };
  const auto next_step = [&](int y0) {
    return y0 + M < strip_end(y0) ? y0 + M : (y0 / kStripRows + static_cast<int>(gridDim.y)) * kStripRows;
  };
  constexpr int kLoads = (kRows * kQuads + Tuning::kThreads - 1) / Tuning::kThreads;  // a thread's quads, at most
  unsigned fetched[kLoads][C];
  int fetched_row0 = 0, fetched_quads = 0;  // the first image row read, and the quads
  const auto fetch = [&](int y0) {
    const bool first = y0 % kStripRows == 0;
    fetched_row0 = first ? y0 - H : y0 + H;
    fetched_quads = (first ? kRows : M) * kQuads;
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int u = static_cast<int>(threadIdx.x) + i * Tuning::kThreads;
      const int r = u / kQuads, quad = u - r * kQuads;
      if (u < fetched_quads) load_quad<C>(src, fetched_row0 + r, band_x - H + 4 * quad, border, constant, fetched[i]);
    }
  };
  // 1. The rows read, each quad of pixels as halves into the planes.
  const auto put = [&]() {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int u = static_cast<int>(threadIdx.x) + i * Tuning::kThreads;
      if (u >= fetched_quads) continue;
      const int r = u / kQuads, quad = u - r * kQuads;
      const unsigned(&w)[C] = fetched[i];
      __half* const at = input + ring_row(fetched_row0 + r) * kStride + 4 * quad;
      const auto store = [&](int plane, unsigned pixels01, unsigned pixels23) {
        *reinterpret_cast<uint2*>(at + plane * kPlane) = make_uint2(pixels01, pixels23);
      };
      if constexpr (kPremultiplied) {
        // Colour times alpha, 16 bits: its high byte and its low byte / 256, each exact.
#pragma unroll
        for (int ch = 0; ch < 3; ++ch) {
          unsigned v[4];
#pragma unroll
          for (int px = 0; px < 4; ++px)
            v[px] = __byte_perm(w[px], 0u, 0x4440 + ch) * __byte_perm(w[px], 0u, 0x4443);
          store(ch, bytes_to_halves(v[0], 1, v[1], 1), bytes_to_halves(v[2], 1, v[3], 1));
          constexpr unsigned kOver256 = 0x1c001c00u;  // 1/256, 1/256
          store(4 + ch, mul_halves(bytes_to_halves(v[0], 0, v[1], 0), kOver256),
                mul_halves(bytes_to_halves(v[2], 0, v[3], 0), kOver256));
        }
        store(3, quad_bytes_to_halves<C>(w, 3, 7), quad_bytes_to_halves<C>(w, 11, 15));
      } else {
#pragma unroll
        for (int ch = 0; ch < C; ++ch)
          store(ch, quad_bytes_to_halves<C>(w, ch, C + ch), quad_bytes_to_halves<C>(w, 2 * C + ch, 3 * C + ch));
      }
    }
  };

  int y0 = static_cast<int>(blockIdx.y) * kStripRows;
  if (y0 < src.height) fetch(y0);
  for (; y0 < src.height; y0 = next_step(y0)) {
    const int y_end = strip_end(y0);
    put();
    __syncthreads();
    if (next_step(y0) < src.height) fetch(next_step(y0));
    // 2. Vertical: a warp a (block of 8 columns, channel); lane l gives the address of
    // the tile's row l, image row y0 - H + l (ldmatrix.x4: matrix l / 8, its row l % 8).
    const int lane_row = ring_row(y0 - H + lane) * kStride;
    unsigned a_hi[S][4], a_lo[S][4];
#pragma unroll
    for (int k_step = 0; k_step < S; ++k_step) {
      fragment(k_step, a_hi[k_step]);
      fragment(2 + k_step, a_lo[k_step]);
    }
    // Two tasks at a time, their loads before their products and their products before
    // their stores, so that each waits on the other's latencies only once.
    constexpr int kTasks = kGroups * C;
    for (int t0 = warp; t0 < kTasks; t0 += 2 * Tuning::kWarps) {
      float d[2][4], d_low[2][4];  // two chains a task: the high terms, the low ones
      unsigned b[2][4], b_low[2][4];
#pragma unroll
      for (int k = 0; k < 2; ++k) {
        const int t = min(t0 + k * Tuning::kWarps, kTasks - 1);  // the last pair may repeat a task
        const int ch = t / kGroups, n8 = t - ch * kGroups;
        tc::load_matrices_x4_transposed(b[k], tc::shared_address(input + ch * kPlane + lane_row + 8 * n8));
        if (kPremultiplied && ch < 3)
          tc::load_matrices_x4_transposed(b_low[k],
                                          tc::shared_address(input + (4 + ch) * kPlane + lane_row + 8 * n8));
      }
#pragma unroll
      for (int k = 0; k < 2; ++k) {
        const int t = min(t0 + k * Tuning::kWarps, kTasks - 1);
#pragma unroll
        for (int e = 0; e < 4; ++e) d[k][e] = d_low[k][e] = 0.0f;
        tc::mma_16x8x16(d[k], a_hi[0], b[k][0], b[k][1]);
        tc::mma_16x8x16(d_low[k], a_lo[0], b[k][0], b[k][1]);
        tc::mma_16x8x16(d[k], a_hi[1], b[k][2], b[k][3]);
        tc::mma_16x8x16(d_low[k], a_lo[1], b[k][2], b[k][3]);
        if (kPremultiplied && t / kGroups < 3) {
          tc::mma_16x8x16(d_low[k], a_hi[0], b_low[k][0], b_low[k][1]);
          tc::mma_16x8x16(d_low[k], a_hi[1], b_low[k][2], b_low[k][3]);
        }
      }
#pragma unroll
      for (int k = 0; k < 2; ++k) {
        const int t = t0 + k * Tuning::kWarps;
        if (t >= kTasks) continue;
        const int ch = t / kGroups, n8 = t - ch * kGroups;
        __half* const hi_plane = sums + 2 * ch * M * kStride;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          unsigned high, low;
          split_sums(d[k][2 * h] + d_low[k][2 * h], d[k][2 * h + 1] + d_low[k][2 * h + 1], high, low);
          const int offset = (g + 8 * h) * kStride + 8 * n8 + 2 * q;
          *reinterpret_cast<unsigned*>(hi_plane + offset) = high;
          *reinterpret_cast<unsigned*>(hi_plane + M * kStride + offset) = low;
        }
      }
    }
    __syncthreads();
    // 3. Horizontal: warp w's output columns 16w to 16w + 15 of the band, every channel.
    // Gray: the low terms in a chain of their own (RGB and RGBA have a chain a channel).
    constexpr int kChains = C == 1 ? 2 : 1;
    float o[C][2][4], o_low[C][2][4];
    const int a_row = (lane & 7) + 8 * ((lane >> 3) & 1), a_col = 16 * warp + 8 * (lane >> 4);
    unsigned x_taps[2][S][4], x_scaled[2][S][4];  // [j][s]: see the fragments above
#pragma unroll
    for (int j = 0; j < 2; ++j)
#pragma unroll
      for (int k_step = 0; k_step < S; ++k_step) {
        fragment(4 + 2 * j + k_step, x_taps[j][k_step]);
        fragment(8 + 2 * j + k_step, x_scaled[j][k_step]);
      }
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
          tc::mma_16x8x16(o[ch][j], ah, x_taps[j][s][0], x_taps[j][s][1]);
          tc::mma_16x8x16(low, ah, x_taps[j][s][2], x_taps[j][s][3]);
          tc::mma_16x8x16(low, al, x_scaled[j][s][2], x_scaled[j][s][3]);
        }
      }
      if constexpr (kChains == 2)
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
          for (int e = 0; e < 4; ++e) o[ch][j][e] += o_low[ch][j][e];
    }
    // The outputs: accumulator e of n-tile j is row g + 8(e >> 1), column 8j + 2q + (e & 1).
    // Steps inside the image with the plain rule (blur, box) store each pair of pixels
    // whole, without the checks; the rest a pixel at a time through the output rule.
    if (plain && y0 + M <= y_end && band_x + Tuning::kBand <= dst.width) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        unsigned char* const row =
            dst.data + static_cast<std::size_t>(y0 + g + 8 * h) * dst.pitch + (band_x + 16 * warp + 2 * q) * C;
#pragma unroll
        for (int j = 0; j < 2; ++j) {
          float v[2][C];
#pragma unroll
          for (int e = 0; e < 2; ++e)
#pragma unroll
            for (int ch = 0; ch < C; ++ch) v[e][ch] = o[ch][j][2 * h + e];
          store_pixel_pair<C, kPremultiplied>(row + 8 * j * C, v, out);
        }
      }
    } else {
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
              const __half* const at = input + ring_row(y) * kStride + col + H;
#pragma unroll
              for (int ch = 0; ch < C; ++ch) centre.c[ch] = __half2float(at[ch * kPlane]);
              if constexpr (kPremultiplied)
#pragma unroll
                for (int ch = 0; ch < 3; ++ch)
                  centre.c[ch] = (centre.c[ch] + __half2float(at[(4 + ch) * kPlane])) * kColourScale;
            }
            const Accum<C> pixel_sums[1] = {sum};
            px = filter2d_pixel<std::uint8_t, C, 1>(pixel_sums, centre, out);
          }
          dst.at(x, y) = px;
        }
    }
    // The next step's rows go where the centres were read.
    if (needs_centre) __syncthreads();
  }
#else
  __trap();  // launched only where the GPU has the tensor cores (separable_mma_runs)
#endif
}

}  // namespace gpufilter::lab::mma
