#pragma once
// separable_strip_imma on 8-bit gray and RGB, on byte columns: the vertical pass on the
// integer tensor cores as on RGBA8 (separable_strip_imma.cuh), a lane's word now 4 bytes
// of a row whatever pixels they belong to. The vertical pass does not care: the byte
// transpose makes the four bytes' fragments, and a block's 8 word columns give the sums of
// 32 bytes, four floats a word column in shared memory, in the row's order. The horizontal
// pass then takes a run of 8 output pixels a thread: its (8 + 2R) x C sums in 16-byte
// loads, its taps FMAs in float (a pixel's channels C floats apart), its 8 x C bytes in
// 8-byte stores (the Unsharp rule's input pixels in word loads). Words that leave the
// image (the halo at its left and right edges), or rows that are not whole words apart (a
// sub-view), are read byte by byte, each pixel mapped through the border
// (element_gather); outputs are written byte by byte where rows do not start on 8 bytes.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/border_runtime.cuh"
#include "convolution/filter2d_output.cuh"
#include "convolution/separable_strip_elements.cuh"
#include "convolution/separable_strip_imma.cuh"

namespace gpufilter::kernels::strip_imma {

// A lane's word column: the row's bytes from `first`, whole where they lie within the row
// and rows are whole words apart, else byte by byte (strip::element_gather); the border
// constant's bytes in the column's channel order.
struct ByteColumn {
  int first;
  bool whole;
  strip::ElementGather gather;
  unsigned constant_word;
};

template <int C>
__device__ __forceinline__ ByteColumn byte_column(int first, int width, bool word_rows, const BorderReads& border,
                                                  const Pixel<std::uint8_t, C>& constant) {
  ByteColumn c{first, word_rows && first >= 0 && first + 4 <= width * C, {}, 0u};
#pragma unroll
  for (int j = 0; j < 4; ++j)
    c.constant_word |= static_cast<unsigned>(constant.c[((first + j) % C + C) % C]) << (8 * j);
  if (!c.whole) c.gather = strip::element_gather<C>(first, width, border);
  return c;
}

// The lane's words of its column in a chunk of the window (lane_words) through the step's
// row table.
template <int C, int R>
__device__ __forceinline__ void load_byte_words(const unsigned char* data, const ByteColumn& column, int t, int chunk,
                                                const long long* offsets, const bool* constant_rows, bool constant,
                                                unsigned (&words)[8]) {
  lane_words<R>(
      t, chunk,
      [&](int row) {
        const unsigned char* const line = data + offsets[row];
        unsigned w;
        if (column.whole) {
          w = *reinterpret_cast<const unsigned*>(line + column.first);
        } else {
          w = 0;
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            const unsigned byte = column.gather.constant_elements & (1u << j)
                                      ? (column.constant_word >> (8 * j)) & 0xFFu
                                      : line[column.gather.index[j]];
            w |= byte << (8 * j);
          }
        }
        return constant && constant_rows[row] ? column.constant_word : w;
      },
      words);
}

template <int C, int R>
__global__ void __launch_bounds__(Tuning::kThreads, Tuning::byte_min_blocks(C, R))
    separable_strip_imma_bytes_kernel(PitchedView<std::uint8_t, C> src, PitchedView<std::uint8_t, C> dst,
                                      const __grid_constant__ ImmaTaps<R> taps, BorderReads border,
                                      Pixel<std::uint8_t, C> constant, Filter2dOutput out, bool convex, int strip_rows,
                                      bool src_word_rows, bool dst_pair_rows) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int kHalo = Tuning::byte_halo_words(C, R);
  constexpr int kBand = Tuning::byte_band(C, R);  // output pixels
  constexpr int kGroups = Tuning::byte_groups(C, R);
  constexpr int kStride = Tuning::byte_row_stride(C, R);  // 16-byte words
  constexpr int kWarps = Tuning::kThreads / 32;
  constexpr int L = Tuning::kByteRun;
  constexpr int kSkip = 4 * kHalo - C * R;  // a run's first 16-byte word's floats before its first tap
  constexpr int kRuns = kBand / L;          // a row's runs
  static_assert(kBand % L == 0 && L * C % 8 == 0, "runs start on 8 bytes");
  static_assert(R >= 1 && R <= Tuning::kMaxRadius, "16 outputs and their halo within the window's chunks");
  static_assert(Tuning::kRows == 16 && kWarps == 8, "the horizontal pass: a warp 8 rows of the step");
  static_assert(Tuning::window_rows(R) <= Tuning::kThreads, "a thread an entry of the row table");
  // The shared memory (SeparableStripImmaTuning::byte_shared_bytes): the step's vertical
  // sums [kRows][kStride] (4 floats a word column), the row table, the taps' fragments.
  extern __shared__ __align__(16) unsigned char shared[];
  constexpr std::size_t kSumsBytes = static_cast<std::size_t>(Tuning::kRows) * kStride * 16;
  Accum<4>* const sums = reinterpret_cast<Accum<4>*>(shared);
  long long* const offsets = reinterpret_cast<long long*>(shared + kSumsBytes);
  bool* const constant_rows = reinterpret_cast<bool*>(offsets + Tuning::window_rows(R));
  unsigned* const fragments = reinterpret_cast<unsigned*>(shared + kSumsBytes + Tuning::row_table_bytes(R));

  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid & 31, warp = tid >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int band_x = static_cast<int>(blockIdx.x) * kBand;
  copy_fragments<R>(taps.a, fragments, tid);
  const bool needs_centre = out.rule == FilterOutput::Unsharp;
  const bool plain = convex && out.rule == FilterOutput::Linear && out.bias == 0.0f;

  for_each_imma_step<R>(src.height, src.pitch, strip_rows, border, offsets, constant_rows, tid, [&](int y0, int y_end) {
#pragma unroll(Tuning::byte_unrolled_groups(C, R))
    for (int k = 0; k < Tuning::byte_groups_per_warp(C, R); ++k) {
      const int group = warp + kWarps * k;
      if (kGroups % kWarps != 0 && group >= kGroups) break;
      // The lane's word column (made at each step: held, the columns took registers the
      // passes need).
      const ByteColumn column =
          byte_column<C>(band_x * C + 4 * (group * 8 + g - kHalo), src.width, src_word_rows, border, constant);
      unsigned total[4][4];
      group_sums<R, false>(
          fragments, lane,
          [&](int chunk, unsigned(&words)[8]) {
            load_byte_words<C, R>(src.data, column, t, chunk, offsets, constant_rows, border.constant, words);
          },
          total);
      float s[4][4];
      scaled_sums<false>(total, s);
      const int col = group * 8 + 2 * t;  // outputs 0 and 2; 1 and 3 one to the right
#pragma unroll
      for (int j = 0; j < 4; ++j)
        store_shared(sums + (g + 8 * (j >> 1)) * kStride + col + (j & 1),
                     Accum<4>{{s[j][0], s[j][1], s[j][2], s[j][3]}});
    }
    __syncthreads();
    // Horizontal: runs of 8 outputs. A quarter-warp's 8 lanes take one run in 8 rows, whose
    // sums lie in 8 different banks (rows an odd number of 16-byte words apart); the warp's
    // quarters take 4 adjacent runs, so each row's stores fill whole sectors.
    const int row = 8 * (warp & 1) + (lane & 7);
    const int y = y0 + row;
    if (y < y_end) {
      unsigned char* const out_row = dst.data + static_cast<std::size_t>(y) * dst.pitch;
      for (int run = 4 * (warp >> 1) + (lane >> 3); run < kRuns; run += 4 * (kWarps / 2)) {
        const int x = band_x + L * run;
        if (x >= dst.width) break;
        // The run's sums streamed 16 bytes at a time (each index a constant once unrolled).
        const Accum<4>* const run_sums = sums + row * kStride + L * C / 4 * run;
        Accum<4> loaded;
        const auto sum_at = [&](int f) {
          if (f == kSkip || f % 4 == 0) loaded = load_shared(run_sums + f / 4);
          return loaded.c[f % 4];
        };
        Accum<C> o[L];
        strip::tap_run<L, R>(o, taps.x, [&](int i) {
          Accum<C> v;
#pragma unroll
          for (int ch = 0; ch < C; ++ch) v.c[ch] = sum_at(kSkip + C * i + ch);
          return v;
        });
        // The Unsharp rule's input pixels: the run's bytes as words where it lies within a
        // row of whole words, else pixel by pixel.
        unsigned centres[L * C / 4] = {};
        if (needs_centre) {
          const unsigned char* const in_row = src.data + static_cast<std::size_t>(y) * src.pitch;
          if (src_word_rows && x + L <= src.width) {
#pragma unroll
            for (int w = 0; w < L * C / 4; ++w)
              centres[w] = reinterpret_cast<const unsigned*>(in_row + static_cast<std::size_t>(x) * C)[w];
          } else {
#pragma unroll
            for (int e = 0; e < L * C; ++e)
              centres[e / 4] |= static_cast<unsigned>(in_row[min(x + e / C, src.width - 1) * C + e % C])
                                << (8 * (e % 4));
          }
        }
        unsigned packed[L * C / 4] = {};
#pragma unroll
        for (int q = 0; q < L; ++q) {
          Pixel<std::uint8_t, C> px;
          if (plain) {
            px = plain_pixel<std::uint8_t, C>(o[q], out);
          } else {
            Pixel<std::uint8_t, C> in;
#pragma unroll
            for (int ch = 0; ch < C; ++ch)
              in.c[ch] = static_cast<std::uint8_t>(centres[(q * C + ch) / 4] >> (8 * ((q * C + ch) % 4)));
            const Accum<C> pixel_sums[1] = {o[q]};
            px = filter2d_pixel<std::uint8_t, C, 1>(pixel_sums, input_value(in, out), out);
          }
#pragma unroll
          for (int ch = 0; ch < C; ++ch) {
            const int e = q * C + ch;
            packed[e / 4] |= static_cast<unsigned>(px.c[ch]) << (8 * (e % 4));
          }
        }
        unsigned char* const out_bytes = out_row + static_cast<std::size_t>(x) * C;
        if (dst_pair_rows && x + L <= dst.width) {
#pragma unroll
          for (int p = 0; p < L * C / 8; ++p)
            reinterpret_cast<uint2*>(out_bytes)[p] = make_uint2(packed[2 * p], packed[2 * p + 1]);
        } else {
#pragma unroll
          for (int e = 0; e < L * C; ++e)
            if (x + e / C < dst.width) out_bytes[e] = static_cast<unsigned char>(packed[e / 4] >> (8 * (e % 4)));
        }
      }
    }
  });
#endif
}

}  // namespace gpufilter::kernels::strip_imma
