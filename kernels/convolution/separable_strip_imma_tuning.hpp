#pragma once
// The strip kernel with its vertical pass on the 8-bit integer tensor cores
// (separable_strip_imma.cuh; docs/techniques/convolution.md, "The strip's vertical pass on
// integer tensor cores"): RGBA8, a block a band of kBand output columns walking down a
// strip, kRows rows a step.
#include <cstddef>
#include <cstdint>

#include "fixed_strip_plan.hpp"  // same folder: included from the library and the kernels
#include "separable_strip_imma_taps.hpp"

namespace gpufilter::kernels {

// Which passes run on the tensor cores: the vertical (the horizontal in float, as the
// float strip's) or both.
enum class ImmaPasses { Vertical, Both };

struct SeparableStripImmaTuning {
  // Output rows a step: the product's M (mma.m16n8k32: 16 output rows of 8 byte columns
  // from 32 input rows, the product's K).
  static constexpr int kRows = kImmaStepRows;
  // Up to two chunks of 32 window rows (two products along K): radius 8 takes one,
  // radius 24 (sigma 8's 49 taps) two.
  static constexpr int kMaxChunks = 2;
  static constexpr int kMaxRadius = (kMaxChunks * kImmaChunkRows - kRows) / 2;
  static constexpr int chunks(int radius) { return imma_chunks(radius); }
  static constexpr int window_rows(int radius) { return chunks(radius) * kImmaChunkRows; }
  // The smallest compiled radius the library's strip takes this form for on RGBA8, as
  // measured against the float strip: premultiplied from radius 4 (at sharpen's 7x7 the two
  // tied); separate alpha, whose colours take half the products, from radius 3
  // (docs/gpu-results.md, "The strip's vertical pass on integer tensor cores").
  static constexpr int library_min_radius(bool premultiplied) { return premultiplied ? 4 : 3; }
  // The passes the library runs on the tensor cores at a compiled radius. Both passes cost
  // about the same at every radius of one chunk count, the float horizontal pass grows with
  // the radius: both were faster where the window's chunks are (nearly) full, at radius 8,
  // 16 and 24, the vertical pass alone at 6, 10 and 12 (docs/gpu-results.md, "Two chunks
  // and both passes on the tensor cores").
  static constexpr ImmaPasses library_passes(int compiled_radius) {
    return compiled_radius == 8 || compiled_radius >= 16 ? ImmaPasses::Both : ImmaPasses::Vertical;
  }
  // The horizontal pass as the float strip's: a warp a row of the step, runs of run()
  // pixels (odd: the lanes' runs start in different banks), each thread two rows.
  static constexpr int kRuns = 32;
  static constexpr int kThreads = 256;
  // A window of one chunk in float rows: runs of 5 (bands of 160 pixels), 4 blocks an SM
  // in 64 registers, a warp's blocks of columns one at a time (rolled_groups). Two chunks
  // (and both passes, below): runs of 7 (224 pixels), 3 blocks an SM, their sums 62 KB a
  // block in the 80 registers that leaves (ptxas, sm_90: up to 8 bytes spilled, in three
  // premultiplied kernels).
  // (docs/gpu-results.md, "The strip's vertical pass on integer tensor cores".)
  static constexpr int run(int radius) { return chunks(radius) == 1 ? 5 : 7; }
  static constexpr bool rolled_groups(int radius, bool integer_rows) {
    return !integer_rows && chunks(radius) == 1;
  }
  static constexpr int min_blocks(int radius, bool integer_rows) { return rolled_groups(radius, integer_rows) ? 4 : 3; }
  // The horizontal pass on the tensor cores too (kIntegerRows, below): tiles of 16 output
  // columns (a product's M) by 8 rows (its N), 32 of them a step in a band of 256 columns,
  // four a warp.
  static constexpr int kTileColumns = 16;
  static constexpr int kIntegerBand = 256;
  static constexpr int band(int radius, bool integer_rows) { return integer_rows ? kIntegerBand : kRuns * run(radius); }
  // The band and its halo; a row of float sums is one pixel longer (an odd count of 16-byte
  // pixels), so the two rows of sums a quarter-warp writes fall in different banks.
  static constexpr int columns(int radius, bool integer_rows = false) {
    return band(radius, integer_rows) + 2 * radius;
  }
  static constexpr int row_stride(int radius) { return columns(radius) + 1; }
  // Blocks of 8 pixel columns: one product's N, a lane's column each.
  static constexpr int groups(int radius, bool integer_rows = false) {
    return (columns(radius, integer_rows) + 7) / 8;
  }
  // kIntegerRows keeps the vertical sums as bytes, [channel][byte][row][column]: 12 planes
  // of kRows rows. A plane's row is 16 bytes times an odd number, so that the 8 rows a
  // horizontal product reads (4 words each) fall in 32 different banks, and reaches the
  // last tile's whole window (zeros past the band's halo).
  static constexpr int plane_stride(int radius) {
    const int need = (kIntegerBand - kTileColumns) + chunks(radius) * kImmaChunkRows;
    const int least = columns(radius, true) > need ? columns(radius, true) : need;
    const int sixteens = (least + 15) / 16;
    return 16 * (sixteens % 2 == 1 ? sixteens : sixteens + 1);
  }
  static constexpr std::size_t plane_bytes(int radius) {
    return static_cast<std::size_t>(12) * kRows * plane_stride(radius);
  }
  // The taps' A fragments of a chunk, [high, low byte][register][lane], copied to shared
  // memory.
  static constexpr std::size_t kChunkFragmentBytes = 2 * 4 * 32 * sizeof(std::uint32_t);
  // Shared memory a block takes: the sums, the row table (an offset and a constant flag a
  // window row, padded to 8 bytes), the fragments. At radius 24, 71 KB: still 3 blocks an SM.
  static constexpr std::size_t row_table_bytes(int radius) {
    return window_rows(radius) * (sizeof(long long) + 1) + 8 - window_rows(radius) % 8;
  }
  // With kIntegerRows: the byte planes in place of the sums, and the horizontal factor's
  // fragments after the vertical's.
  static constexpr std::size_t sums_bytes(int radius, bool integer_rows) {
    return integer_rows ? plane_bytes(radius) : static_cast<std::size_t>(kRows) * row_stride(radius) * 16;
  }
  static constexpr std::size_t shared_bytes(int radius, bool integer_rows = false) {
    return sums_bytes(radius, integer_rows) + row_table_bytes(radius) +
           (integer_rows ? 2 : 1) * chunks(radius) * kChunkFragmentBytes;
  }
  // Gray and RGB on byte columns (separable_strip_imma_bytes.cuh): a lane's word is 4
  // bytes of a row, which are the products' four planes, so the vertical pass is RGBA's;
  // the horizontal pass gives a run of kByteRun output pixels a thread. A block's band of
  // output pixels starts on 8 bytes; its halo is whole words either side.
  static constexpr int kByteRun = 8;
  static constexpr int byte_halo_words(int channels, int radius) { return (channels * radius + 3) / 4; }
  // Gray: 16 blocks of 8 word columns (two a warp) hold the band and its halo. RGB: bands
  // of 256 pixels (192 words), 32 runs a row, two for each lane of a warp's quarter and
  // each pair of warps (the horizontal pass's threads, below); a warp's 3-4 blocks of
  // columns go one at a time (byte_unrolled_groups), which keeps RGB in 64 registers.
  static constexpr int byte_band_words(int channels, int radius) {
    return channels == 1 ? 8 * 16 - 2 * byte_halo_words(1, radius) : 192;
  }
  static constexpr int byte_band(int channels, int radius) { return 4 * byte_band_words(channels, radius) / channels; }
  static constexpr int byte_groups(int channels, int radius) {
    return (byte_band_words(channels, radius) + 2 * byte_halo_words(channels, radius) + 7) / 8;
  }
  static constexpr int byte_groups_per_warp(int channels, int radius) {
    return (byte_groups(channels, radius) + kThreads / 32 - 1) / (kThreads / 32);
  }
  // A step's row of sums: 4 floats a word column, an odd number of 16-byte words apart (the
  // rows a quarter-warp writes, or reads, fall in different banks).
  static constexpr int byte_row_stride(int channels, int radius) { return 8 * byte_groups(channels, radius) + 1; }
  // The blocks of columns a warp's loop unrolls: gray's two together; RGB's one at a time
  // (unrolled, its columns took 80 registers).
  static constexpr int byte_unrolled_groups(int channels, int radius) {
    return channels == 1 ? byte_groups_per_warp(channels, radius) : 1;
  }
  // Four blocks an SM (64 registers); windows of two chunks three (80: in 64 they spilled).
  static constexpr int byte_min_blocks(int, int radius) { return chunks(radius) == 1 ? 4 : 3; }
  static constexpr std::size_t byte_shared_bytes(int channels, int radius) {
    return static_cast<std::size_t>(kRows) * byte_row_stride(channels, radius) * 16 + row_table_bytes(radius) +
           chunks(radius) * kChunkFragmentBytes;
  }
  // The smallest compiled radius the library's strip takes this form for on gray and RGB,
  // as measured against the float strip's columns: gray at every radius from 1 to 24; RGB
  // from 5 (below, element columns were faster; docs/gpu-results.md, "Gray and RGB on byte
  // columns").
  static constexpr int byte_library_min_radius(int channels) { return channels == 1 ? 1 : 5; }
  // Strips of 1 or 2 steps, as the grid's last wave fills best. The rolled form (one chunk
  // in float rows, 4 blocks an SM) takes two steps unless that fills 5% less of the last
  // wave: a block's start (its fragments' copy, its first row table) cost more than the
  // fill lost at 8K (docs/gpu-results.md, "The strip's vertical pass on integer tensor
  // cores").
  static constexpr StepStrips kStrips{kRows, 2, 0.01};
  static constexpr StepStrips strips(int radius, bool integer_rows) {
    return rolled_groups(radius, integer_rows) ? StepStrips{kRows, 2, 0.05} : kStrips;
  }
  // The radii compiled (the float strip's up to kMaxRadius); a mask between runs in the
  // next one up, its outer taps zero.
  static constexpr int kCompiledRadii[] = {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24};
  static constexpr int compiled_radius(int radius) {
    for (int r : kCompiledRadii)
      if (r >= radius) return r;
    return 0;
  }
};

}  // namespace gpufilter::kernels
