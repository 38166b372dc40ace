#pragma once
// The separable strip kernel on 8-bit images of 1 and 3 channels (docs/techniques/
// convolution.md, "Gray and RGB bytes on the strip"). The passes are the strip's
// (separable_strip.cuh), vertical first, K rows a step, but the vertical pass does not
// care which pixel a byte belongs to: a thread walks down a word of 4 bytes of the
// band's rows, loads it whole (as RGBA8 moves) and leaves 4 float sums in shared memory,
// one a byte. The horizontal pass reads them a channel at a time, the taps C floats
// apart, and leaves its run of pixels in a shared row of bytes, which the threads then
// store a word each, consecutive threads on consecutive words (a run's own bytes, stored
// by its thread, would spread each warp store over as many sectors as the run has bytes).
// Where a word leaves the image (the halo at its left and right edges), or rows are not
// whole words apart (a sub-view), its bytes are read (and written) one by one, each pixel
// read mapped through the border.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "convolution/separable_strip.cuh"

namespace gpufilter::kernels::strip {

// Where a word of a row does not lie within it, or rows are not whole words apart (a
// sub-view), its bytes are read one by one: each byte's offset in the row, its pixel
// mapped through the border, and which bytes are the border constant's.
template <int C>
struct ByteGather {
  int offset[4];
  unsigned constant_bytes;  // bit j: byte j is the constant's
};

template <int C>
__device__ __forceinline__ ByteGather<C> byte_gather(int first_byte, int width, const BorderReads& border) {
  ByteGather<C> g{};
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int b = first_byte + j;
    const int p = b >= 0 ? b / C : -((C - 1 - b) / C);  // the pixel, rounded down
    const bool inside = p >= 0 && p < width;
    g.offset[j] = (inside ? p : border_map(p, width, border.x)) * C + (b - p * C);
    if (!inside && border.constant) g.constant_bytes |= 1u << j;
  }
  return g;
}

template <int C, int R>
__global__ void __launch_bounds__(Tuning::threads(R), Tuning::min_blocks(R))
    separable_strip_bytes_kernel(PitchedView<std::uint8_t, C> src, PitchedView<std::uint8_t, C> dst, StripTaps<R> taps,
                                 BorderReads border, Pixel<std::uint8_t, C> constant, Filter2dOutput out, bool convex,
                                 int strip_rows, bool src_word_rows, bool dst_word_rows) {
  using T = std::uint8_t;
  constexpr int K = Tuning::kRows;
  constexpr int L = Tuning::byte_run(C);
  constexpr int kBand = Tuning::byte_band_width(C, R);  // output pixels a block
  constexpr int kHalo = Tuning::byte_halo(C, R);        // bytes either side
  constexpr int kWords = Tuning::byte_words(C, R);
  constexpr int kRowFloats = 4 * kWords;  // a step's row of sums, one a byte
  constexpr int kRuns = kBand / L;
  static_assert(kRuns * L == kBand && kRuns * K == Tuning::threads(R), "a run for every thread");
  static_assert(kWords <= Tuning::threads(R), "one vertical pass of the threads covers the band and its halo");
  static_assert(kBand * C % 4 == 0, "bands start on whole words");
  constexpr int kStepRows = K + 2 * R;
  constexpr int kRowBytes = kBand * C;  // a step's row of output bytes
  // Shared memory (SeparableStripTuning::byte_shared_bytes): the step's sums [K][kRowFloats],
  // its output bytes [K][kRowBytes], then the row table as in separable_strip_kernel.
  extern __shared__ __align__(16) unsigned char shared[];
  float* const sums = reinterpret_cast<float*>(shared);
  unsigned char* const staged = shared + K * kRowFloats * sizeof(float);
  long long* const row_offsets = reinterpret_cast<long long*>(staged + K * kRowBytes);
  bool* const row_constant = reinterpret_cast<bool*>(row_offsets + kStepRows);
  static_assert(kRowBytes % 8 == 0, "the row table is aligned");

  const int tid = static_cast<int>(threadIdx.x);
  const int band_x = static_cast<int>(blockIdx.x) * kBand;
  const bool has_word = tid < kWords;
  const int first_byte = band_x * C - kHalo + 4 * tid;
  const bool whole = src_word_rows && first_byte >= 0 && first_byte + 4 <= src.width * C;
  unsigned constant_word = 0;  // the constant's bytes in the word's channel order
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const int channel = ((first_byte + j) % C + C) % C;
    constant_word |= static_cast<unsigned>(constant.c[channel]) << (8 * j);
  }
  const int row_of_step = tid / kRuns;
  const int run_x = band_x + (tid % kRuns) * L;
  // The run's first tap, C floats a pixel from the row's first byte.
  const float* const run_sums = sums + row_of_step * kRowFloats + kHalo + ((tid % kRuns) * L - R) * C;
  const bool plain = convex && out.rule == FilterOutput::Linear && out.bias == 0.0f;

  for_each_step<R>(src.height, src.pitch, strip_rows, border, row_offsets, row_constant, [&](int y0, int y_end) {
    if (has_word) {
      // The column's K vertical sums, one a byte: load(row) gives its word of a row.
      Accum<4> acc[K];
      const auto column_sums = [&](auto load) {
        tap_run<K, R>(acc, taps.y, [&](int i) {
          return word_bytes(row_constant[i] ? constant_word : load(src.data + row_offsets[i]));
        });
      };
      if (whole) {
        column_sums([&](const unsigned char* row) { return *reinterpret_cast<const unsigned*>(row + first_byte); });
      } else {
        const ByteGather<C> gather = byte_gather<C>(first_byte, src.width, border);
        column_sums([&](const unsigned char* row) {
          unsigned word = 0;
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            const unsigned byte =
                gather.constant_bytes & (1u << j) ? (constant_word >> (8 * j)) & 0xFFu : row[gather.offset[j]];
            word |= byte << (8 * j);
          }
          return word;
        });
      }
#pragma unroll
      for (int k = 0; k < K; ++k) store_shared(reinterpret_cast<Accum<4>*>(sums + k * kRowFloats) + tid, acc[k]);
    }
    __syncthreads();
    const int y = y0 + row_of_step;
    if (y < y_end) {
      Accum<C> o[L];
      tap_run<L, R>(o, taps.x, [&](int i) {
        Accum<C> v;
#pragma unroll
        for (int ch = 0; ch < C; ++ch) v.c[ch] = run_sums[i * C + ch];
        return v;
      });
      // The run's pixels into the step's row of bytes.
      unsigned char* const run_bytes = staged + row_of_step * kRowBytes + (tid % kRuns) * L * C;
#pragma unroll
      for (int q = 0; q < L; ++q) {
        const int x = run_x + q;
        if (x >= dst.width) break;
        Pixel<T, C> px;
        if (plain) {
          px = to_pixel<T, C, /*kClamp=*/false>(o[q]);
        } else {
          const Accum<C> pixel_sums[1] = {o[q]};
          px = filter2d_pixel<T, C, 1>(pixel_sums, input_value(src.at(x, y), out), out);
        }
#pragma unroll
        for (int ch = 0; ch < C; ++ch) run_bytes[q * C + ch] = px.c[ch];
      }
    }
    __syncthreads();
    // The step's rows to the image a word a thread, consecutive threads on consecutive
    // words; bytes one by one at the row's end and where rows are not whole words apart.
    if (y < y_end) {
      const unsigned char* const row_bytes = staged + row_of_step * kRowBytes;
      unsigned char* const out_row = dst.data + static_cast<std::size_t>(y) * dst.pitch + band_x * C;
      const int bytes = min(kRowBytes, (dst.width - band_x) * C);
      for (int w = tid % kRuns; w * 4 < bytes; w += kRuns) {
        if (dst_word_rows && w * 4 + 4 <= bytes) {
          *reinterpret_cast<unsigned*>(out_row + w * 4) = *reinterpret_cast<const unsigned*>(row_bytes + w * 4);
        } else {
          for (int b = w * 4; b < min(bytes, w * 4 + 4); ++b) out_row[b] = row_bytes[b];
        }
      }
    }
  });
}

template <int C, int R>
void launch_bytes_radius(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                         const ExecContext& ctx) {
  constexpr const char* kName = "separable_strip_bytes_kernel";
  const auto kernel = separable_strip_bytes_kernel<C, R>;
  constexpr std::size_t kShared = Tuning::byte_shared_bytes(C, R);
  allow_dynamic_shared(reinterpret_cast<const void*>(kernel), kShared);
  const int strip_rows = Tuning::kRows * Tuning::kStepsPerStrip;
  const dim3 grid(grid_x(blocks_for(src.width, Tuning::byte_band_width(C, R)), kName),
                  grid_y(blocks_for(src.height, strip_rows)));
  // Whole words: every row starts on a 4-byte boundary (the view's start and pitch).
  const auto word_rows = [](const ImageView& view) {
    return reinterpret_cast<std::uintptr_t>(view.data) % 4 == 0 && view.pitch % 4 == 0;
  };
  kernel<<<grid, Tuning::threads(R), kShared, ctx.stream>>>(
      pitched<std::uint8_t, C>(src), pitched<std::uint8_t, C>(dst), taps_of<R>(spec.separable[0]),
      border_reads(border.mode, src.width, src.height), constant_pixel<std::uint8_t, C>(border),
      make_filter2d_output<std::uint8_t, C>(spec), spec.convex, strip_rows, word_rows(src),
      word_rows(dst));
  check_launch(kName, ctx);
}

}  // namespace gpufilter::kernels::strip
