#pragma once
// The separable strip kernel (separable_strip.cuh; docs/techniques/convolution.md,
// "Large radii in float: separable_strip"): a block walks down a strip of a band of
// columns, K rows a step: the vertical pass of the band and its halo columns into
// shared memory, then the horizontal pass of those K rows from there.
#include <cstddef>

#include "fixed_strip_plan.hpp"  // same folder: included from the library and the kernels

namespace gpufilter::kernels {

struct SeparableStripTuning {
  // Output rows a step (K): each pixel column of the band reads K + 2R input rows for
  // K outputs, so the rows it loads a step are (K + 2R) / K times those it writes.
  static constexpr int kRows = 8;
  // Output pixels a thread's horizontal pass makes (L): it reads L + 2R of the shared
  // row. Odd, so the lanes' runs start in different banks.
  static constexpr int kRun = 7;
  // The largest radius compiled (65x65 masks: sigma 10.7 at 3 sigma); wider masks take
  // the tiled or two-pass separable kernels.
  static constexpr int kMaxRadius = 32;
  // Threads a block: one pixel column of the band each in the vertical pass, so the
  // band (kRun * threads / kRows pixels) plus 2R halo columns fit one pass of them.
  static constexpr int threads(int radius) { return radius <= 16 ? 256 : 512; }
  // Blocks an SM the kernels are compiled for (__launch_bounds__): 64 registers a thread
  // (ptxas -v on sm_90: at most 16 bytes of spill, at some radii), 4 blocks of 256
  // threads, which the shared sums of the 13x13 RGBA kernel allow too.
  static constexpr int min_blocks(int radius) { return 1024 / threads(radius); }
  static constexpr int band_width(int radius) { return kRun * threads(radius) / kRows; }
  // Rows a step reads: its K output rows and R more on each side.
  static constexpr int step_rows(int radius) { return kRows + 2 * radius; }
  // The row tables, at the end of both column kinds' shared memory: room for the step's
  // and the next one's (separable_strip.cuh, RowTables), a 64-bit offset and a constant
  // flag for each of a step's K + 2R rows.
  static constexpr std::size_t row_table_bytes(int radius) {
    return 2 * static_cast<std::size_t>(step_rows(radius)) * (sizeof(long long) + 1);
  }
  // Shared memory a block takes: a step's vertical sums (K rows of the band and its
  // halo, `accum_bytes` a pixel: 16 for four channels, 4 a channel otherwise), then the
  // row tables.
  static constexpr std::size_t shared_bytes(int radius, std::size_t accum_bytes) {
    return static_cast<std::size_t>(kRows) * (band_width(radius) + 2 * radius) * accum_bytes +
           row_table_bytes(radius);
  }
  // Staged stores (separable_strip.cuh, kStaged): a step's output pixels.
  static constexpr std::size_t staged_bytes(int radius, std::size_t pixel_bytes) {
    return static_cast<std::size_t>(kRows) * band_width(radius) * pixel_bytes;
  }
  // Whether a step's vertical pass writes the next step's row table (RowTables), so that
  // a step needs no barrier of its own and no warp waits on a few writing the table:
  // gray and RGB (element columns, and gray's pixel columns) measured faster so; RGBA's
  // pixel columns measured slower and write each step's table at its start
  // (docs/techniques/convolution.md, "Large radii in float: separable_strip").
  static constexpr bool tables_ahead(int channels) { return channels != 4; }
  // Strips of 1 to 4 steps a block walks down before the next block takes over: fewer
  // where shorter strips fill the grid's last wave better (step_strip_plan; no warm-up
  // rows to amortise: a step reads its own halo rows), a longer one kept where its grid
  // fills the waves within 1% of the best.
  static constexpr StepStrips kStrips{kRows, 4, 0.01};
  // Element columns (RGB, wide gray) walk strips of at most 2 steps: where 1 to 4 steps
  // fill the waves alike (8K RGB), 2 measured faster than 4 on 16-bit RGB, and 1 step
  // no slower than 2 on gray (docs/techniques/convolution.md, "Gray and RGB on
  // element columns").
  static constexpr StepStrips kElementStrips{kRows, 2, 0.01};
  // Staged stores (u16x4 and f32x4, stages_stores; the lab's staged RGBA8 too) walk strips
  // of one step: on 8K, where 1 to 4 steps fill the waves alike, 1 step measured faster
  // than 2, 3 and 4 on both formats and both Gaussians. The library's RGBA8 (unstaged) was
  // no faster at 1 step and keeps kStrips (docs/gpu-results.md, "The default calls").
  static constexpr StepStrips kStagedStrips{kRows, 1, 0.01};
  // RGBA of 8 bytes a pixel or more (u16x4, f32x4) stores its outputs staged (kStaged):
  // a thread's own run of 7 pixels would make a warp's store span 7 pixels a lane, which
  // kept these formats on the tiled kernel below 13x13 and slowed them above; staged,
  // they were faster at every radius measured (docs/gpu-results.md, "Staged stores for
  // wide RGBA"). RGBA8 stores its runs: staged measured no faster there.
  static constexpr bool stages_stores(std::size_t channel_bytes, int channels) {
    return channels == 4 && channel_bytes >= 2;
  }
  // Float gray on pixel columns (sharpen's) below this radius stays on the tiled kernel,
  // which measured faster at 3x3 and 5x5; from 7x7 (the sharpen's default) the strip was
  // the faster (docs/gpu-results.md, "Element columns").
  static constexpr int kFloatGrayMinRadius = 3;
  static constexpr bool runs(std::size_t channel_bytes, int channels, int radius) {
    return !(channel_bytes == 4 && channels == 1) || radius >= kFloatGrayMinRadius;
  }
  // The formats and outputs the strip runs on element columns (separable_strip_elements.cuh):
  // RGB of every type (on pixel columns, their loads, shared sums and stores went a
  // channel at a time, slower than the tiled kernel) and gray of 16 and 32 bits, where
  // a quad moves more than a pixel column's one value; 8-bit gray measured faster on
  // pixel columns. Not the Unsharp output (sharpen) on float, which reads each output's
  // input pixel, a run of them a thread, and measured slower there than the kernels it
  // ran on before (docs/gpu-results.md, "Element columns").
  static constexpr bool elements_run(std::size_t channel_bytes, int channels, bool unsharp) {
    const bool format = channels == 3 || (channels == 1 && channel_bytes > 1);
    return format && !(unsharp && channel_bytes == 4);
  }
  // Images of 1 and 3 channels on element columns (separable_strip_elements.cuh): the
  // vertical pass runs down quads of 4 channel values (elements) of a row, whatever
  // pixels they belong to, so it loads whole words, as RGBA8 does; the horizontal pass
  // makes runs of element_run pixels, an odd number of floats apart, so the lanes' runs
  // start in different banks. Gray: runs of 21. RGB: runs of 9 on 8- and 16-bit elements,
  // whose band of 288 pixels (R <= 16) keeps 218-240 of the 256 threads busy in the vertical
  // pass against 170-192 at runs of 7, and measured faster; 7 on float, whose larger shared
  // rows at 9 cost a block an SM and measured slower (docs/techniques/convolution.md,
  // "Gray and RGB on element columns").
  static constexpr int element_run(int channels, std::size_t element_bytes) {
    return channels == 1 ? 21 : (element_bytes < 4 ? 9 : 7);
  }
  static constexpr int element_band_width(int channels, std::size_t element_bytes, int radius) {
    return element_run(channels, element_bytes) * threads(radius) / kRows;
  }
  // The halo's elements either side, whole quads.
  static constexpr int element_halo(int channels, int radius) { return (radius * channels + 3) / 4 * 4; }
  // Quads a row of the band and its halo: one a thread in the vertical pass.
  static constexpr int element_quads(int channels, std::size_t element_bytes, int radius) {
    return (element_band_width(channels, element_bytes, radius) * channels + 2 * element_halo(channels, radius)) / 4;
  }
  // Shared memory a block takes: a step's sums (a float an element of the band and its
  // halo), its output elements (staged, so that a warp stores whole quads of a row), then
  // the row tables.
  static constexpr std::size_t element_shared_bytes(int channels, int radius, std::size_t element_bytes) {
    return static_cast<std::size_t>(kRows) * element_quads(channels, element_bytes, radius) * 4 * sizeof(float) +
           static_cast<std::size_t>(kRows) * element_band_width(channels, element_bytes, radius) * channels *
               element_bytes +
           row_table_bytes(radius);
  }
  // The radii compiled, each a kernel per format; a mask of another radius runs in the
  // next one up, its outer taps zero.
  static constexpr int kCompiledRadii[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32};
  static constexpr int compiled_radius(int radius) {
    for (int r : kCompiledRadii)
      if (r >= radius) return r;
    return 0;
  }
};

}  // namespace gpufilter::kernels
