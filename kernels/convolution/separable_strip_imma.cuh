#pragma once
// separable_strip_imma: the float strip kernel (separable_strip.cuh) on RGBA8 with its
// vertical pass on the 8-bit integer tensor cores. A block owns a band of output columns
// and walks down a strip, 16 rows a step:
//   1. vertical: each warp takes blocks of 8 pixel columns; a block's 16 output rows of
//      its 32 bytes are four products (one a channel) of the taps' banded matrix A
//      (16 x 32: A[m][k] = q[k - m]) with the 32 input rows B (32 x 8 bytes), u8 x u8
//      into exact 32-bit sums, mma.m16n8k32. The 16-bit taps q take two products (high
//      and low byte); premultiplied colours (colour x alpha, 16 bits) two more. Radii
//      above 8 take a second chunk of 32 rows, whose products add to the same integer
//      sums. The sums go to shared memory as floats, as the float strip's do;
//   2. horizontal: the float strip's pass, unchanged (its taps carry the sums' 2^-16); or
//      (kIntegerRows) on the tensor cores too: the vertical sums as 24-bit integers in
//      three byte planes, and each tile of 16 output columns by 8 rows the products of the
//      horizontal factor's banded matrix with the planes' 32-column windows (16-bit taps x
//      24-bit sums: six products a channel, summed into four by the shift they take), so
//      that its cost hardly grows with the radius where the float taps' grows as 2R + 1.
// A lane's B fragment holds 4 consecutive rows of one byte column, so each lane loads
// its pixel column's word of 4 rows and a byte transpose (8 byte permutes) makes the four
// channels' fragments: the products' byte columns are then the block's 8 pixels of one
// channel. The taps' fragments are read from shared memory at each block of columns: held
// in registers, ptxas reloaded them from the kernel's parameters (a constant load a lane,
// serialised) to stay within the registers of 3 blocks an SM.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/border_runtime.cuh"
#include "common/tensor_core.cuh"
#include "convolution/filter2d_output.cuh"
#include "convolution/separable_strip.cuh"
#include "convolution/separable_strip_imma_rows.cuh"
#include "convolution/separable_strip_imma_tuning.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::kernels::strip_imma {

// The taps: the horizontal factor in float (times 2^-16, the vertical sums' scale), the
// vertical factor as each lane's A fragments, [chunk][high byte, low byte][register][lane];
// for kIntegerRows the horizontal factor's too.
template <int R>
struct ImmaTaps {
  float x[2 * R + 1];
  ImmaFragments a[Tuning::chunks(R)];
  ImmaFragments ax[Tuning::chunks(R)];
};

// The 4 x 4 byte transpose: p[j] holds byte j of x[0..3], x[i]'s in byte i.
__device__ __forceinline__ void transpose_bytes(const unsigned (&x)[4], unsigned (&p)[4]) {
  const unsigned lo01 = __byte_perm(x[0], x[1], 0x5140u), hi01 = __byte_perm(x[0], x[1], 0x7362u);
  const unsigned lo23 = __byte_perm(x[2], x[3], 0x5140u), hi23 = __byte_perm(x[2], x[3], 0x7362u);
  p[0] = __byte_perm(lo01, lo23, 0x5410u);
  p[1] = __byte_perm(lo01, lo23, 0x7632u);
  p[2] = __byte_perm(hi01, hi23, 0x5410u);
  p[3] = __byte_perm(hi01, hi23, 0x7632u);
}

// One channel's bytes (a plane) as a product's B fragment.
struct Plane {
  unsigned b0, b1;  // the fragment: window rows 4t..4t+3 and 16+4t..16+4t+3
};

// Adds one chunk's products to the four channels' exact vertical sums of the lane's four
// outputs ([output][channel]; output j: row g + 8 (j / 2), pixel column 2t + j % 2 of the
// block), in units of 2^-16 level (premultiplied colours: colour x alpha); first: the
// window's first chunk, whose products start the sums (a constant at every call).
template <bool kPremultiplied>
__device__ __forceinline__ void add_chunk_sums(const unsigned (&words)[8], const unsigned (&a_hi)[4],
                                               const unsigned (&a_lo)[4], bool first, unsigned (&total)[4][4]) {
  const auto add = [&](int j, int ch, unsigned v) { total[j][ch] = first ? v : total[j][ch] + v; };
  if constexpr (!kPremultiplied) {
    unsigned p0[4], p1[4];
    transpose_bytes({words[0], words[1], words[2], words[3]}, p0);
    transpose_bytes({words[4], words[5], words[6], words[7]}, p1);
#pragma unroll
    for (int ch = 0; ch < 4; ++ch) {
      int hi[4] = {0, 0, 0, 0}, lo[4] = {0, 0, 0, 0};
      tc::mma_16x8x32_u8(hi, a_hi, p0[ch], p1[ch]);
      tc::mma_16x8x32_u8(lo, a_lo, p0[ch], p1[ch]);
#pragma unroll
      for (int j = 0; j < 4; ++j) add(j, ch, (static_cast<unsigned>(hi[j]) << 8) + static_cast<unsigned>(lo[j]));
    }
  } else {
    // Colour x alpha in 16 bits: R and B as two 16-bit lanes times alpha in one multiply;
    // G with a 1 in the upper lane, so that its product carries alpha there.
    unsigned rb[8], ga[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const unsigned alpha = words[i] >> 24;
      rb[i] = (words[i] & 0x00FF00FFu) * alpha;
      ga[i] = __byte_perm(words[i], 0x00010000u, 0x4641u) * alpha;
    }
    unsigned rb0[4], rb1[4], ga0[4], ga1[4];  // R lo, R hi, B lo, B hi; G lo, G hi, A, 0
    transpose_bytes({rb[0], rb[1], rb[2], rb[3]}, rb0);
    transpose_bytes({rb[4], rb[5], rb[6], rb[7]}, rb1);
    transpose_bytes({ga[0], ga[1], ga[2], ga[3]}, ga0);
    transpose_bytes({ga[4], ga[5], ga[6], ga[7]}, ga1);
    const Plane lo_planes[3] = {{rb0[0], rb1[0]}, {ga0[0], ga1[0]}, {rb0[2], rb1[2]}};
    const Plane hi_planes[3] = {{rb0[1], rb1[1]}, {ga0[1], ga1[1]}, {rb0[3], rb1[3]}};
#pragma unroll
    for (int ch = 0; ch < 3; ++ch) {
      int hh[4] = {0, 0, 0, 0}, mid[4] = {0, 0, 0, 0}, ll[4] = {0, 0, 0, 0};
      tc::mma_16x8x32_u8(hh, a_hi, hi_planes[ch].b0, hi_planes[ch].b1);
      tc::mma_16x8x32_u8(mid, a_hi, lo_planes[ch].b0, lo_planes[ch].b1);
      tc::mma_16x8x32_u8(mid, a_lo, hi_planes[ch].b0, hi_planes[ch].b1);
      tc::mma_16x8x32_u8(ll, a_lo, lo_planes[ch].b0, lo_planes[ch].b1);
      // q x colour x alpha summed over the whole window < 2^16 x 65025 < 2^32: exact as an
      // unsigned sum, each chunk's share too.
#pragma unroll
      for (int j = 0; j < 4; ++j)
        add(j, ch,
            (static_cast<unsigned>(hh[j]) << 16) + (static_cast<unsigned>(mid[j]) << 8) + static_cast<unsigned>(ll[j]));
    }
    int hi[4] = {0, 0, 0, 0}, lo[4] = {0, 0, 0, 0};
    tc::mma_16x8x32_u8(hi, a_hi, ga0[2], ga1[2]);
    tc::mma_16x8x32_u8(lo, a_lo, ga0[2], ga1[2]);
#pragma unroll
    for (int j = 0; j < 4; ++j) add(j, 3, (static_cast<unsigned>(hi[j]) << 8) + static_cast<unsigned>(lo[j]));
  }
}

// The sums in the units the horizontal pass takes: level (premultiplied colours: colour x
// alpha / 255) x 2^16.
template <bool kPremultiplied>
__device__ __forceinline__ void scaled_sums(const unsigned (&total)[4][4], float (&s)[4][4]) {
  constexpr float kColourScale = kPremultiplied ? 1.0f / 255.0f : 1.0f;
#pragma unroll
  for (int j = 0; j < 4; ++j)
#pragma unroll
    for (int ch = 0; ch < 4; ++ch)
      s[j][ch] = ch < 3 && kPremultiplied ? __uint2float_rn(total[j][ch]) * kColourScale
                                          : __uint2float_rn(total[j][ch]);
}

// A lane's 8 words of a chunk of the window (a constant at every call): its rows 4t..4t+3
// and 16+4t..16+4t+3 of the chunk, word(row) giving each by its window row. A lane's 4
// rows past the last tap are not read (zeros: their taps are 0; decided at compile time
// where no lane's are).
template <int R, class Word>
__device__ __forceinline__ void lane_words(int t, int chunk, Word word, unsigned (&words)[8]) {
  constexpr int kReadRows = Tuning::kRows + 2 * R;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int first = chunk * kImmaChunkRows + (i >> 2) * 16;
    if (first + 12 >= kReadRows && first + 4 * t >= kReadRows) {
      words[i] = 0;
      continue;
    }
    words[i] = word(first + 4 * t + (i & 3));
  }
}

// A lane's words of a block of 8 pixel columns in a chunk of the window (a constant at
// every call): its column (g) in the chunk's rows 4t..4t+3 and 16+4t..16+4t+3, through
// the border and the step's row table. A lane's 4 rows past the last tap are not read
// (zeros: their taps are 0).
template <int R, int kCols>
__device__ __forceinline__ void load_group(const PitchedView<std::uint8_t, 4>& src, int band_x, int group, int g,
                                           int t, int chunk, const long long* offsets, const bool* constant_rows,
                                           const BorderReads& border, unsigned constant_word, unsigned (&words)[8]) {
  constexpr int kReadRows = Tuning::kRows + 2 * R;
  // Whether lane t's 4 rows from chunk row `first` lie past the last tap (decided at
  // compile time where no lane's do).
  const auto unread = [&](int first) { return first + 12 >= kReadRows && first + 4 * t >= kReadRows; };
  const int local = min(group * 8 + g, kCols - 1);
  const int x = band_x - R + local;
  const bool x_inside = x >= 0 && x < src.width;
  const int sx = x_inside ? x : border_map(x, src.width, border.x);
  const bool column_constant = !x_inside && border.constant;
  const unsigned char* const column = src.data + static_cast<std::size_t>(sx) * 4;
  if (!border.constant) {  // uniform: no reads to replace
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int first = chunk * kImmaChunkRows + (i >> 2) * 16;
      const int row = first + 4 * t + (i & 3);
      words[i] = unread(first) ? 0u : *reinterpret_cast<const unsigned*>(column + offsets[row]);
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int first = chunk * kImmaChunkRows + (i >> 2) * 16;
    const int row = first + 4 * t + (i & 3);
    if (unread(first)) {
      words[i] = 0;
      continue;
    }
    const unsigned w = *reinterpret_cast<const unsigned*>(column + offsets[row]);
    words[i] = column_constant || constant_rows[row] ? constant_word : w;
  }
}

// A block of 8 columns' exact vertical sums over the window's chunks (add_chunk_sums):
// load(chunk, words) gives the lane's words of each chunk, the taps' fragments are the
// block's copy in shared memory.
template <int R, bool kPremultiplied, class Load>
__device__ __forceinline__ void group_sums(const unsigned* fragments, int lane, Load load, unsigned (&total)[4][4]) {
#pragma unroll
  for (int chunk = 0; chunk < Tuning::chunks(R); ++chunk) {  // unrolled: `chunk` is a constant in each
    unsigned words[8];
    load(chunk, words);
    unsigned a_hi[4], a_lo[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      a_hi[r] = fragments[chunk * Tuning::kThreads + r * 32 + lane];
      a_lo[r] = fragments[chunk * Tuning::kThreads + 128 + r * 32 + lane];
    }
    add_chunk_sums<kPremultiplied>(words, a_hi, a_lo, chunk == 0, total);
  }
}

// The block's copy of the taps' fragments of each chunk (a thread a word; read after the
// first step's barrier).
template <int R>
__device__ __forceinline__ void copy_fragments(const ImmaFragments (&a)[Tuning::chunks(R)], unsigned* fragments,
                                               int tid) {
  static_assert(Tuning::kThreads == 2 * 4 * 32, "a thread a fragment word of each chunk");
#pragma unroll
  for (int c = 0; c < Tuning::chunks(R); ++c) fragments[c * Tuning::kThreads + tid] = (&a[c][0][0][0])[tid];
}

// The block's steps of kRows rows down the strips it owns (strips of strip_rows rows, a
// stride of gridDim.y): at each, the block's first threads write the window's row table
// (rows past the last tap read the last), a barrier (after which every thread has also
// finished the last step), then step(y0, y_end).
template <int R, class Step>
__device__ __forceinline__ void for_each_imma_step(int height, std::size_t pitch, int strip_rows,
                                                   const BorderReads& border, long long* offsets, bool* constant_rows,
                                                   int tid, Step step) {
  constexpr int kReadRows = Tuning::kRows + 2 * R;
  for (int strip = static_cast<int>(blockIdx.y); static_cast<long long>(strip) * strip_rows < height;
       strip += static_cast<int>(gridDim.y)) {
    const int y_begin = strip * strip_rows;
    const int y_end = min(height, y_begin + strip_rows);
    for (int y0 = y_begin; y0 < y_end; y0 += Tuning::kRows) {
      if (tid < Tuning::window_rows(R))
        strip::write_row_table<R>(y0, height, pitch, border, offsets, constant_rows, tid, min(tid, kReadRows - 1));
      __syncthreads();
      step(y0, y_end);
    }
  }
}

template <int R, bool kPremultiplied, bool kIntegerRows>
__global__ void __launch_bounds__(Tuning::kThreads, Tuning::min_blocks(R, kIntegerRows))
    separable_strip_imma_kernel(PitchedView<std::uint8_t, 4> src, PitchedView<std::uint8_t, 4> dst,
                                const __grid_constant__ ImmaTaps<R> taps, BorderReads border,
                                Pixel<std::uint8_t, 4> constant, Filter2dOutput out, bool convex, int strip_rows) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr int K = Tuning::kRows;
  constexpr int W = Tuning::window_rows(R);
  constexpr int kChunks = Tuning::chunks(R);
  constexpr int L = Tuning::run(R);
  constexpr int kRuns = Tuning::kRuns;
  constexpr int kBand = Tuning::band(R, kIntegerRows);
  constexpr int kCols = Tuning::columns(R, kIntegerRows);
  constexpr int kStride = Tuning::row_stride(R);
  constexpr int kPlaneStride = Tuning::plane_stride(R);
  constexpr int kGroups = Tuning::groups(R, kIntegerRows);
  constexpr int kWarps = Tuning::kThreads / 32;
  constexpr int kTiles = 2 * kBand / Tuning::kTileColumns;  // the step's two halves of 8 rows
  static_assert(R >= 1 && R <= Tuning::kMaxRadius, "16 outputs and their halo within the window's chunks");
  static_assert(Tuning::kThreads == kRuns * K / 2, "the horizontal pass: two runs a thread");
  static_assert(W <= Tuning::kThreads, "a thread an entry of the row table");
  // The shared memory (SeparableStripImmaTuning::shared_bytes): the step's vertical sums
  // [K][kStride] (kIntegerRows: the byte planes); the row table: offset and constant flag
  // of each of the window's rows; the taps' fragments [chunk][2][4][32] (kIntegerRows: the
  // horizontal factor's after them).
  extern __shared__ __align__(16) unsigned char shared[];
  constexpr std::size_t kSumsBytes = Tuning::sums_bytes(R, kIntegerRows);
  Accum<4>* const sums = reinterpret_cast<Accum<4>*>(shared);
  unsigned char* const planes = shared;
  long long* const offsets = reinterpret_cast<long long*>(shared + kSumsBytes);
  bool* const constant_rows = reinterpret_cast<bool*>(offsets + W);

  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid & 31, warp = tid >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int band_x = static_cast<int>(blockIdx.x) * kBand;
  unsigned* const fragments = reinterpret_cast<unsigned*>(shared + kSumsBytes + Tuning::row_table_bytes(R));
  unsigned* const x_fragments = fragments + kChunks * Tuning::kThreads;
  copy_fragments<R>(taps.a, fragments, tid);
  if constexpr (kIntegerRows) copy_fragments<R>(taps.ax, x_fragments, tid);
  if constexpr (kIntegerRows) zero_plane_tails<kCols, kPlaneStride>(planes, tid);
  const unsigned constant_word = reinterpret_cast<const unsigned&>(constant);
  // Horizontal pass in float: the thread's run of L pixels in rows `first_row` and first_row + 8.
  const int run = tid % kRuns;
  const int first_row = tid / kRuns;
  const int run_x = band_x + run * L;
  const bool needs_centre = out.rule == FilterOutput::Unsharp || out.keep_alpha;
  const bool plain = convex && out.rule == FilterOutput::Linear && out.bias == 0.0f && !out.keep_alpha;

  for_each_imma_step<R>(src.height, src.pitch, strip_rows, border, offsets, constant_rows, tid, [&](int y0, int y_end) {
    const auto column_block = [&](int group) {
      unsigned total[4][4];
      group_sums<R, kPremultiplied>(
          fragments, lane,
          [&](int chunk, unsigned(&words)[8]) {
            load_group<R, kCols>(src, band_x, group, g, t, chunk, offsets, constant_rows, border, constant_word, words);
          },
          total);
      const int col = group * 8 + 2 * t;  // the lane's outputs 0 and 2; 1 and 3 one to the right
      if constexpr (kIntegerRows) {
        if (col < kCols) store_planes<kPremultiplied>(total, planes, kPlaneStride, g, col);
      } else {
        float s[4][4];
        scaled_sums<kPremultiplied>(total, s);
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + (j & 1) < kCols)
            store_shared(sums + (g + 8 * (j >> 1)) * kStride + col + (j & 1),
                         Accum<4>{{s[j][0], s[j][1], s[j][2], s[j][3]}});
      }
    };
    // One block of columns at a time where the tuning says so; elsewhere the compiler's choice.
    if constexpr (Tuning::rolled_groups(R, kIntegerRows)) {
#pragma unroll 1
      for (int group = warp; group < kGroups; group += kWarps) column_block(group);
    } else {
      for (int group = warp; group < kGroups; group += kWarps) column_block(group);
    }
    __syncthreads();
    if constexpr (kIntegerRows) {
      for (int tile = warp; tile < kTiles; tile += kWarps) {
        const int row0 = 8 * (tile / (kTiles / 2));
        const int x0 = Tuning::kTileColumns * (tile % (kTiles / 2));
        float o[4][4];
        horizontal_tile<R, kPremultiplied>(planes, kPlaneStride, x_fragments, row0, x0, lane, o);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const int x = band_x + x0 + g + 8 * (j >> 1);
          const int y = y0 + row0 + 2 * t + (j & 1);
          if (x >= dst.width || y >= y_end) continue;
          const Accum<4> sum{{o[j][0], o[j][1], o[j][2], o[j][3]}};
          Pixel<std::uint8_t, 4> px;
          if (plain) {
            px = plain_pixel<std::uint8_t, 4>(sum, out);
          } else {
            const Accum<4> centre = needs_centre ? input_value(src.at(x, y), out) : zero_accum<4>();
            const Accum<4> pixel_sums[1] = {sum};
            px = filter2d_pixel<std::uint8_t, 4, 1>(pixel_sums, centre, out);
          }
          dst.at(x, y) = px;
        }
      }
    } else {
#pragma unroll 1
      for (int half = 0; half < 2; ++half) {
        const int row_of_step = first_row + 8 * half;
        const int y = y0 + row_of_step;
        if (y >= y_end) continue;
        Pixel<std::uint8_t, 4> px[L];
        strip::horizontal_run<std::uint8_t, 4, R>(px, sums + row_of_step * kStride + run * L, taps.x, src, run_x, y,
                                                  dst.width, out, plain, needs_centre);
        strip::store_run(&dst.at(0, y), run_x, dst.width, px);
      }
    }
  });
#endif
}

// ---- host side ----

// The horizontal factor in float times 2^-16 (the vertical sums' scale), centred in 2R + 1
// taps; the vertical factor as the lanes' A fragments, and with both passes on the tensor
// cores (kIntegerRows) the horizontal factor's too.
template <int R, bool kIntegerRows>
ImmaTaps<R> taps_of(const SeparableMask& mask) {
  ImmaTaps<R> taps{};
  const int rx = static_cast<int>(mask.x.size()) / 2;
  for (std::size_t i = 0; i < mask.x.size(); ++i)
    taps.x[R - rx + static_cast<int>(i)] = std::ldexp(mask.x[i], -kImmaWeightBits);
  const std::vector<std::uint32_t> qy = imma_integer_taps(mask.y);
  for (int chunk = 0; chunk < Tuning::chunks(R); ++chunk) imma_fragments(qy, R, chunk, taps.a[chunk]);
  if constexpr (kIntegerRows) {
    const std::vector<std::uint32_t> qx = imma_integer_taps(mask.x);
    for (int chunk = 0; chunk < Tuning::chunks(R); ++chunk) imma_fragments(qx, R, chunk, taps.ax[chunk]);
  }
  return taps;
}

// Calls f(std::integral_constant<int, R>) for `compiled`, one of Tuning::kCompiledRadii.
template <class F>
void visit_imma_radius(int compiled, F&& f) {
  constexpr std::size_t kCount = sizeof(Tuning::kCompiledRadii) / sizeof(Tuning::kCompiledRadii[0]);
  if (!strip::visit_radius_of_list<Tuning>(compiled, f, std::make_index_sequence<kCount>{}))
    throw Error(ErrorCode::InvalidArgument,
                "separable_strip_imma: radius " + std::to_string(compiled) + " is not compiled");
}

}  // namespace gpufilter::kernels::strip_imma
