#pragma once
// The separable strip kernel: rank-1 masks of any format up to SeparableStripTuning::
// kMaxRadius, in float, vertical pass first (docs/techniques/convolution.md, "Large
// radii in float: separable_strip"). A block owns a band of TW output columns and walks
// down a strip of rows, K rows a step:
//   1. vertical: a thread per pixel column of the band and its R halo columns either
//      side streams the K + 2R input rows it needs down that column, each converted
//      (and premultiplied) once and multiplied into the K output rows it reaches, and
//      leaves the K vertical sums in shared memory;
//   2. horizontal: a thread per run of L outputs of one of the K rows streams L + 2R of
//      those sums the same way and stores its L pixels through the output rule.
// The taps are kernel arguments with compile-time indices, so each multiply-add takes
// its weight straight from the constant bank; each tap is one FMA a channel, on the
// FP32 pipe. The integer separable_packed needs half-rate IMADs for the same taps.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "common/border_runtime.cuh"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "convolution/filter2d_output.cuh"
#include "convolution/separable_strip_launch.hpp"
#include "convolution/separable_strip_tuning.hpp"
#include "convolution/step_strip_grid.cuh"

namespace gpufilter::kernels::strip {

using Tuning = SeparableStripTuning;

// The mask's two factors, centred in 2R + 1 taps (a smaller mask's outer taps are 0).
template <int R>
struct StripTaps {
  float x[2 * R + 1];
  float y[2 * R + 1];
  float y_sum;  // of y's taps: a column of the constant border
};

template <int R>
constexpr int columns() {
  return Tuning::band_width(R) + 2 * R;
}

template <class T, int C, int R, bool kStaged>
constexpr std::size_t shared_bytes() {
  return Tuning::shared_bytes(R, sizeof(Accum<C>)) + (kStaged ? Tuning::staged_bytes(R, sizeof(Pixel<T, C>)) : 0);
}

// N outputs of one pass from N + 2R inputs, in a row or down a column: in(i) is the i-th
// input (i = 0: the first output's first tap), converted once and multiplied into the up
// to N outputs it reaches, output n taking taps[i - n].
template <int N, int R, int C, class Inputs>
__device__ __forceinline__ void tap_run(Accum<C> (&o)[N], const float (&taps)[2 * R + 1], Inputs in) {
#pragma unroll
  for (int n = 0; n < N; ++n) o[n] = zero_accum<C>();
#pragma unroll
  for (int i = 0; i < N + 2 * R; ++i) {
    const Accum<C> v = in(i);
#pragma unroll
    for (int n = 0; n < N; ++n) {
      const int j = i - n;  // the tap input i is for output n
      if (j >= 0 && j <= 2 * R) accumulate(o[n], taps[j], v);
    }
  }
}

// The horizontal pass of a run of L output pixels of row y from run_sums, its L + 2R
// vertical sums: the taps, then the output rule. `plain`: a convex Linear mask without
// bias (plain_pixel); else filter2d_pixel, with the input pixel where `needs_centre`.
template <class T, int C, int R, int L>
__device__ __forceinline__ void horizontal_run(Pixel<T, C> (&px)[L], const Accum<C>* run_sums,
                                               const float (&taps)[2 * R + 1], const PitchedView<T, C>& src, int run_x,
                                               int y, int width, const Filter2dOutput& out, bool plain,
                                               bool needs_centre) {
  Accum<C> o[L];
  tap_run<L, R>(o, taps, [&](int i) { return load_shared(run_sums + i); });
  if (plain) {
#pragma unroll
    for (int q = 0; q < L; ++q) px[q] = plain_pixel<T, C>(o[q], out);
  } else {
#pragma unroll
    for (int q = 0; q < L; ++q) {
      const int ox = min(run_x + q, width - 1);
      const Accum<C> centre = needs_centre ? input_value(src.at(ox, y), out) : zero_accum<C>();
      const Accum<C> pixel_sums[1] = {o[q]};
      px[q] = filter2d_pixel<T, C, 1>(pixel_sums, centre, out);
    }
  }
}

// A run of L pixels stored in `row` from run_x, those within `width`.
template <class T, int C, int L>
__device__ __forceinline__ void store_run(Pixel<T, C>* row, int run_x, int width, const Pixel<T, C> (&px)[L]) {
  if (run_x + L <= width) {
#pragma unroll
    for (int q = 0; q < L; ++q) row[run_x + q] = px[q];
  } else {
#pragma unroll
    for (int q = 0; q < L; ++q)
      if (run_x + q < width) row[run_x + q] = px[q];
  }
}

// A step's row table: for each of the rows it reads (y0 - R to y0 + K + R - 1), the row's
// byte offset after the border mode and whether it is the constant's, so that the
// unrolled loads do no border arithmetic. Room for two in shared memory: ahead
// (SeparableStripTuning::tables_ahead), a step reads one while the block's last threads
// (idle or nearly so in the vertical pass, whose columns are the first threads) write the
// next step's into the other before the barrier after the vertical pass, so no step
// waits on a few threads writing its own table; else the block's first threads write
// each step's table at its start, a barrier before its vertical pass.
struct RowTables {
  long long* offsets;  // [2][K + 2R]
  bool* constant;      // [2][K + 2R]
};

// Entry `entry` of the table for the step's window row `window_row` (input row
// y0 - R + window_row); the strip kernels' entries are their rows.
template <int R>
__device__ __forceinline__ void write_row_table(int y0, int height, std::size_t pitch, const BorderReads& border,
                                                long long* offsets, bool* constant, int entry, int window_row) {
  const int y = y0 - R + window_row;
  const bool inside = y >= 0 && y < height;
  const int row = inside ? y : border_map(y, height, border.y);
  offsets[entry] = static_cast<long long>(row) * static_cast<long long>(pitch);
  constant[entry] = !inside && border.constant;
}

template <int R>
__device__ __forceinline__ void write_row_table(int y0, int height, std::size_t pitch, const BorderReads& border,
                                                long long* offsets, bool* constant, int entry) {
  write_row_table<R>(y0, height, pitch, border, offsets, constant, entry, entry);
}

// The block's steps: for each strip of `strip_rows` rows it owns (a stride of gridDim.y
// strips), each step of K output rows from y0 (y_end: the strip's end, within the image).
// step(y0, y_end, offsets, constant, write_next) runs a step on its row table and calls
// write_next() after its vertical pass, before the barrier that follows it.
// Here each step's table is written at its start by the block's first threads, a barrier
// before its vertical pass, after which the last step's horizontal pass has read its sums
// too; the table is written while other threads may still be in that horizontal pass,
// which does not read it.
template <int R, class Step>
__device__ __forceinline__ void for_each_step(int height, std::size_t pitch, int strip_rows, const BorderReads& border,
                                              RowTables tables, Step&& step) {
  constexpr int kStepRows = Tuning::step_rows(R);
  for (int strip = static_cast<int>(blockIdx.y); static_cast<long long>(strip) * strip_rows < height;
       strip += static_cast<int>(gridDim.y)) {
    const int y_begin = strip * strip_rows;
    const int y_end = min(height, y_begin + strip_rows);
    for (int y0 = y_begin; y0 < y_end; y0 += Tuning::kRows) {
      for (int i = static_cast<int>(threadIdx.x); i < kStepRows; i += Tuning::threads(R))
        write_row_table<R>(y0, height, pitch, border, tables.offsets, tables.constant, i);
      __syncthreads();
      step(y0, y_end, tables.offsets, tables.constant, [] {});
    }
  }
}

// The same steps with the tables ahead: the first step's table is written before it,
// and each step's vertical pass writes the next one's (write_next, the block's last
// threads), so a step must end with every thread past the reads of its sums, which the
// next step's vertical pass writes over (a barrier after its horizontal pass).
template <int R, int kThreads, class Step>
__device__ __forceinline__ void for_each_step_tables_ahead(int height, std::size_t pitch, int strip_rows,
                                                           const BorderReads& border, RowTables tables, Step&& step) {
  constexpr int kStepRows = Tuning::step_rows(R);
  static_assert(kStepRows <= kThreads, "a thread an entry of the table");
  const int entry = kThreads - 1 - static_cast<int>(threadIdx.x);  // the thread's entry of the tables
  int strip = static_cast<int>(blockIdx.y);
  if (static_cast<long long>(strip) * strip_rows >= height) return;
  int y0 = strip * strip_rows;
  if (entry < kStepRows) write_row_table<R>(y0, height, pitch, border, tables.offsets, tables.constant, entry);
  __syncthreads();
  for (int table = 0;; table ^= 1) {
    const int y_end = min(height, strip * strip_rows + strip_rows);
    // The next step: the strip's next, or the first of the block's next strip.
    int next_strip = strip, next_y0 = y0 + Tuning::kRows;
    if (next_y0 >= y_end) {
      next_strip = strip + static_cast<int>(gridDim.y);
      next_y0 = static_cast<long long>(next_strip) * strip_rows < height ? next_strip * strip_rows : -1;
    }
    const int next = (table ^ 1) * kStepRows;
    step(y0, y_end, tables.offsets + table * kStepRows, tables.constant + table * kStepRows, [&] {
      if (next_y0 >= 0 && entry < kStepRows)
        write_row_table<R>(next_y0, height, pitch, border, tables.offsets + next, tables.constant + next, entry);
    });
    if (next_y0 < 0) return;
    strip = next_strip;
    y0 = next_y0;
  }
}

// kStaged: the horizontal pass leaves its pixels in shared memory (a step's rows of the
// band, after the sums) and the threads store each row a pixel a thread, consecutive
// threads on consecutive pixels, instead of each storing its own run (a warp store then
// spans L pixels a lane). Not written over the sums: there the pixels would wait in
// registers for every run to read its sums, and spilled (docs/techniques/convolution.md,
// "RGBA's stores"). RGBA of 16 and 32 bits (SeparableStripTuning::stages_stores), and
// the lab's `separable_strip_staged` on every RGBA.
template <class T, int C, int R, bool kStaged = false>
__global__ void __launch_bounds__(Tuning::threads(R), Tuning::min_blocks(R))
    separable_strip_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, StripTaps<R> taps, BorderReads border,
                           Pixel<T, C> constant, Filter2dOutput out, bool convex, int strip_rows) {
  constexpr int K = Tuning::kRows;
  constexpr int L = Tuning::kRun;
  constexpr int kBand = Tuning::band_width(R);
  constexpr int kCols = columns<R>();
  constexpr int kRuns = kBand / L;  // runs a row
  static_assert(kRuns * K == Tuning::threads(R), "the horizontal pass has a run for every thread");
  static_assert(kCols <= Tuning::threads(R), "one vertical pass of the threads covers the band and its halo");
  constexpr int kStepRows = Tuning::step_rows(R);
  constexpr bool kAhead = Tuning::tables_ahead(C);
  // The shared memory (SeparableStripTuning::shared_bytes): the step's vertical sums,
  // [K][kCols]; then the two row tables (RowTables).
  extern __shared__ __align__(16) unsigned char shared[];
  Accum<C>* const sums = reinterpret_cast<Accum<C>*>(shared);
  // kStaged: the step's output pixels, [K][kBand], between the sums and the tables.
  [[maybe_unused]] Pixel<T, C>* const staged =
      reinterpret_cast<Pixel<T, C>*>(shared + K * kCols * sizeof(Accum<C>));
  constexpr std::size_t kStagedBytes = kStaged ? Tuning::staged_bytes(R, sizeof(Pixel<T, C>)) : 0;
  static_assert(kStagedBytes % sizeof(long long) == 0, "the row table is aligned");
  long long* const row_offsets =
      reinterpret_cast<long long*>(shared + K * kCols * sizeof(Accum<C>) + kStagedBytes);
  const RowTables tables{row_offsets, reinterpret_cast<bool*>(row_offsets + 2 * kStepRows)};
  static_assert(K * kCols * sizeof(Accum<C>) % sizeof(long long) == 0, "the row table is aligned");

  const int tid = static_cast<int>(threadIdx.x);
  const int band_x = static_cast<int>(blockIdx.x) * kBand;
  // Vertical pass: the thread's column, mapped through the border once.
  const bool has_column = tid < kCols;
  const int x = band_x - R + tid;
  const bool x_inside = x >= 0 && x < src.width;
  const int sx = x_inside ? x : border_map(x, src.width, border.x);
  const bool column_constant = !x_inside && border.constant;
  const unsigned char* const column = src.data + static_cast<std::size_t>(sx) * sizeof(Pixel<T, C>);
  // Horizontal pass: the thread's row of the step and its run of L pixels.
  const int row_of_step = tid / kRuns;
  const int run_x = band_x + (tid % kRuns) * L;
  const Accum<C>* const run_sums = sums + row_of_step * kCols + (tid % kRuns) * L;
  const bool needs_centre = out.rule == FilterOutput::Unsharp || out.keep_alpha;
  // Convex masks with the Linear rule and no bias (blur, box): the sums stay in the
  // channel's range, so the output needs no bias, rule or clamp (plain_pixel).
  const bool plain = convex && out.rule == FilterOutput::Linear && out.bias == 0.0f && !out.keep_alpha;

  const auto step = [&](int y0, int y_end, const long long* offsets, const bool* constant_rows, auto write_next) {
    if (has_column) {
      Accum<C> acc[K];
      tap_run<K, R>(acc, taps.y, [&](int i) {
        return load_input<T, C>(column + offsets[i], constant_rows[i], constant, out);
      });
      // A column of the constant border: every output row is the constant's times the
      // sum of the taps (kept out of the loop, where the compiler would copy the loop for it).
      if (column_constant) {
        const Accum<C> c = input_value(constant, out);
#pragma unroll
        for (int k = 0; k < K; ++k)
#pragma unroll
          for (int ch = 0; ch < C; ++ch) acc[k].c[ch] = c.c[ch] * taps.y_sum;
      }
#pragma unroll
      for (int k = 0; k < K; ++k) store_shared(sums + k * kCols + tid, acc[k]);
    }
    write_next();
    __syncthreads();
    const int y = y0 + row_of_step;
    [[maybe_unused]] Pixel<T, C>* const staged_row = staged + row_of_step * kBand;
    if (y < y_end) {
      Pixel<T, C> px[L];
      horizontal_run<T, C, R>(px, run_sums, taps.x, src, run_x, y, dst.width, out, plain, needs_centre);
      if constexpr (kStaged) {
#pragma unroll
        for (int q = 0; q < L; ++q) staged_row[(tid % kRuns) * L + q] = px[q];
      } else {
        store_run(&dst.at(0, y), run_x, dst.width, px);
      }
    }
    // Staged, a barrier before the stores (a row's kRuns runs are one warp, so each warp
    // store covers consecutive pixels; the next step writes the staged rows after its
    // first barrier). With the tables ahead the next step's vertical pass writes over the
    // sums without a barrier first: every run has read its own before this one.
    if constexpr (kStaged || kAhead) __syncthreads();
    if constexpr (kStaged) {
      if (y < y_end) {
        Pixel<T, C>* const row = &dst.at(band_x, y);
        const int pixels = min(kBand, dst.width - band_x);
        for (int p = tid % kRuns; p < pixels; p += kRuns) row[p] = staged_row[p];
      }
    }
  };
  if constexpr (kAhead)
    for_each_step_tables_ahead<R, Tuning::threads(R)>(src.height, src.pitch, strip_rows, border, tables, step);
  else
    for_each_step<R>(src.height, src.pitch, strip_rows, border, tables, step);
}

// Calls f(std::integral_constant<int, R>) where R, the compiled radius that runs a mask,
// is `compiled` (one of Radii::kCompiledRadii, a kernel's tuning); false where it is none
// of them.
template <class Radii, class F, std::size_t... I>
bool visit_radius_of_list(int compiled, F& f, std::index_sequence<I...>) {
  return ((compiled == Radii::kCompiledRadii[I]
               ? (f(std::integral_constant<int, Radii::kCompiledRadii[I]>{}), true)
               : false) ||
          ...);
}

// Calls f(std::integral_constant<int, R>) for the compiled radius that runs `radius`:
// one instantiation for each radius of Tuning::kCompiledRadii.
template <class F>
void visit_compiled_radius(int radius, F&& f) {
  constexpr std::size_t kCount = sizeof(Tuning::kCompiledRadii) / sizeof(Tuning::kCompiledRadii[0]);
  if (!visit_radius_of_list<Tuning>(Tuning::compiled_radius(radius), f, std::make_index_sequence<kCount>{}))
    throw Error(ErrorCode::InvalidArgument, "separable_strip: radius " + std::to_string(radius) + " is not compiled");
}

template <int R>
StripTaps<R> taps_of(const SeparableMask& mask) {
  StripTaps<R> taps{};
  const int rx = static_cast<int>(mask.x.size()) / 2, ry = static_cast<int>(mask.y.size()) / 2;
  for (std::size_t i = 0; i < mask.x.size(); ++i) taps.x[R - rx + static_cast<int>(i)] = mask.x[i];
  double y_sum = 0.0;
  for (std::size_t j = 0; j < mask.y.size(); ++j) {
    taps.y[R - ry + static_cast<int>(j)] = mask.y[j];
    y_sum += mask.y[j];
  }
  taps.y_sum = static_cast<float>(y_sum);
  return taps;
}

template <class T, int C, int R, bool kStaged = false>
void launch_radius(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                   const ExecContext& ctx) {
  constexpr const char* kName = kStaged ? "separable_strip_staged_kernel" : "separable_strip_kernel";
  const auto kernel = separable_strip_kernel<T, C, R, kStaged>;
  constexpr std::size_t kShared = shared_bytes<T, C, R, kStaged>();
  const StripGrid grid = step_strip_grid(src, Tuning::band_width(R), reinterpret_cast<const void*>(kernel),
                                         Tuning::threads(R), kShared,
                                         kStaged ? Tuning::kStagedStrips : Tuning::kStrips, kName);
  kernel<<<grid.grid, Tuning::threads(R), kShared, ctx.stream>>>(
      pitched<T, C>(src), pitched<T, C>(dst), taps_of<R>(spec.separable[0]),
      border_reads(border.mode, src.width, src.height), constant_pixel<T, C>(border), make_filter2d_output<T, C>(spec),
      spec.convex, grid.strip_rows);
  check_launch(kName, ctx);
}

template <class T>
void launch_typed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx) {
  const int radius = std::max(spec.width(), spec.height()) / 2;
  visit_compiled_radius(radius, [&](auto r) {
    constexpr int R = decltype(r)::value;
    constexpr bool kStagedRgba = Tuning::stages_stores(sizeof(T), 4);
    switch (src.format.channels) {
      case 1: return launch_radius<T, 1, R>(src, dst, spec, border, ctx);
      case 4: return launch_radius<T, 4, R, kStagedRgba>(src, dst, spec, border, ctx);
      default: break;
    }
    throw Error(ErrorCode::UnsupportedFormat, "separable_strip: unsupported channel count in " + src.format.name());
  });
}

// RGBA of type T with the staged stores (the lab's `separable_strip_staged`).
template <class T>
void launch_typed_staged(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                         const ExecContext& ctx) {
  if (src.format.channels != 4)
    throw Error(ErrorCode::UnsupportedFormat, "separable_strip_staged: runs RGBA, not " + src.format.name());
  const int radius = std::max(spec.width(), spec.height()) / 2;
  visit_compiled_radius(radius, [&](auto r) {
    launch_radius<T, 4, decltype(r)::value, /*kStaged=*/true>(src, dst, spec, border, ctx);
  });
}

}  // namespace gpufilter::kernels::strip
