#pragma once
// Launch shapes and limits of the general 2-D filter kernels (filter2d_*.cu).
#include "fixed_strip_plan.hpp"  // same folder: included from the library and the kernels
namespace gpufilter::kernels {

struct Filter2dTuning {
  // Naive and constant: 32x8 threads, one pixel each; a warp covers 32 adjacent pixels
  // of one row, so every tap's loads coalesce into as few transactions as possible.
  static constexpr int kSimpleBlockX = 32;
  static constexpr int kSimpleBlockY = 8;
  // __constant__ floats for the masks, in ONE slot: a 127x127 mask is 16129 floats
  // (63 KiB) of the 64 KiB a module may hold, so a second slot cannot fit. 16256 =
  // 127 * 128 also holds two masks up to 89x89 (Magnitude).
  static constexpr int kConstantSlots = 1;
  static constexpr int kConstantCapacity = 16256;
  // Tiled and tiled-L2: 32x8 threads, each computing kRowsPerThread rows of one column,
  // so the output tile is 32x32: 32 lanes across a row keep shared accesses
  // conflict-free, and each weight read from the constant cache serves 4 outputs.
  static constexpr int kTileBlockX = 32;
  static constexpr int kTileBlockY = 8;
  static constexpr int kRowsPerThread = 4;
  static constexpr int kTileW = kTileBlockX;
  static constexpr int kTileH = kTileBlockY * kRowsPerThread;
};

// The column walk (filter2d_walk.cuh): masks up to kMaxRadius each side, a warp on 32
// adjacent runs of P columns walking down a strip of rows.
struct Filter2dWalkTuning {
  // 3x3 and 5x5 (and the shapes between): a lane passes its sums for the 2R columns
  // beyond its own to the lanes that own them, a shuffle each a channel and mask; wider
  // masks keep the tile, whose shared memory serves any radius.
  static constexpr int kMaxRadius = 2;
  static constexpr int kWarps = 8;  // a block: 8 warps side by side
  static constexpr int kThreads = 32 * kWarps;
  // Pixels a lane owns (P). More share the per-row work (row address, border test, the
  // 2R shuffles and adds) among more pixels but hold P times the rows in registers; the
  // kernel takes any P. One measured fastest: at 2 (8-bit RGBA, 3x3, 68 registers, 3
  // blocks an SM) the 8K convolve took 208 against 179 µs, at 4 (8-bit gray) 80.6
  // against 79.2 (docs/techniques/convolution.md, "Small masks: the column walk").
  static constexpr int kPixelsALane = 1;
  // Whether Auto runs one rank-1 mask that fits the walk (blur, box, sharpen up to 5x5)
  // here instead of on the separable strip: measured faster on every 16-bit and float
  // format and on three channels (the strip does not take them; the tiled separable
  // kernel does), slower on 8-bit gray and RGBA, whose strip and separable_packed
  // kernels stay Auto's (the same docs section).
  static constexpr bool auto_prefers_to_separable(int channel_bytes, int channels) {
    return channel_bytes > 1 || channels == 3;
  }
  // Blocks an SM the kernels are compiled for: 64 registers a thread at one pixel a lane
  // (4 blocks of 256), 80 at more (3 blocks).
  static constexpr int min_blocks(int pixels) { return pixels == 1 ? 4 : 3; }
  // Rows loaded together a step: their loads are in flight at once, and the window of
  // converted rows moves once a step. Two where a lane owns several pixels.
  static constexpr int rows_a_step(int pixels) { return pixels == 1 ? 4 : 2; }
  // Rows a block walks: a multiple of 4 from 32 to 64, the length whose grid fills the
  // largest share of its waves' block slots, the longest within 1% of that
  // (step_strip_plan). Each strip reads 2R rows before its first output, so strips stay
  // 32 rows or more. At 8K every format takes 44 rows (3168 blocks: 4, 6 or 8 an SM make
  // whole waves), which measured fastest of 32, 44, 60 and 64 rows on every default row
  // of the walk (docs/techniques/convolution.md, "Small masks: the column walk").
  static constexpr StepStrips kStrips{4, 16, 0.01, 8};
  // Lanes either side that compute only for their neighbours.
  static constexpr int halo_lanes(int radius, int pixels) { return (radius + pixels - 1) / pixels; }
  static constexpr int columns_a_warp(int radius, int pixels) {
    return (32 - 2 * halo_lanes(radius, pixels)) * pixels;
  }
};

}  // namespace gpufilter::kernels
