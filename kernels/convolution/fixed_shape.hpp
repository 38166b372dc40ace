#pragma once
#include "fixed_strip_plan.hpp"  // same folder: included from the library and the kernels
namespace gpufilter::kernels {

// How a register-window kernel (separable_fixed.cu, gradient_int.cu) is launched: its
// block, the registers it may use, how far ahead of the math it loads, how many gray
// pixels a thread owns and how the rows are cut into strips.
//   kBlock        threads a block.
//   kMaxRegisters the register budget a thread is compiled for (__launch_bounds__ min
//                 blocks = 65536 / (kBlock * kMaxRegisters)); 0 leaves it to the
//                 compiler. A window that needs more gets more (min_blocks()), so no
//                 instantiation spills.
//   kPrefetch     rows whose words are loaded before the math of the current row
//                 (0: each row's loads wait for its own math to end).
//   kGrayPixels   pixels a gray thread owns (4: one word; 8: two words).
//   kRgbaPixels   pixels an RGBA thread owns (1: one word; 2: two words).
//   kFillWaves    true: the strip length is chosen at launch so the grid is whole waves
//                 of resident blocks (fixed_strip_plan.hpp); false: strips of
//                 kFixedStripRows.
template <int kBlock, int kMaxRegisters, int kPrefetch, int kGrayPixels, int kRgbaPixels, bool kFillWaves>
struct FixedShape {
  static constexpr int kBlockThreads = kBlock;
  static constexpr int kPrefetchRows = kPrefetch;
  static constexpr bool kBalancedStrips = kFillWaves;
  // The strip of shapes that do not fill waves (the lab's serial shape): 32 rows
  // (2R / 32 = 12.5% warm-up at R = 2).
  static constexpr int kFixedStripRows = 32;
  // Pixels a thread owns in x: gray kGrayPixels, 4 RGB (three words: 4 RGB pixels are the
  // smallest whole number of words), RGBA kRgbaPixels. More would amortise the halo (the
  // horizontal pass reads P + 2R pixels for P outputs) but costs 2R+1 more registers
  // per sample.
  static constexpr int pixels_per_thread(int channels) {
    return channels == 1 ? kGrayPixels : channels == 3 ? 4 : kRgbaPixels;
  }
  // __launch_bounds__' minimum blocks per SM for a kernel whose registers live through a
  // row (the window, the words loaded ahead, the row's unpacked bytes and sums) number
  // `live`; kWorkRegisters is what the rest needs (addresses, loop state). From ptxas -v
  // on sm_90, 5x5: gray with 4 pixels (model 51) fits 64 registers without spilling; RGBA
  // with 2 pixels one row ahead (model 94) spills at 72 and 80, RGB (model 119) at 96.
  // Radii above kMaxCappedRadius are left to the compiler: their windows are long and
  // the compiler interleaves rows, so the model undercounts (ptxas spilled gray 7x7 and
  // 9x9 at 72 registers); the speed targets are at 5x5.
  static constexpr int kWorkRegisters = 16;
  static constexpr int kMaxCappedRadius = 2;
  static constexpr int min_blocks(int live, int radius) {
    if (kMaxRegisters == 0 || radius > kMaxCappedRadius) return 1;
    const int need = (live + kWorkRegisters + 7) / 8 * 8;
    const int budget = need > kMaxRegisters ? need : kMaxRegisters;
    const int blocks = 65536 / (kBlock * budget);
    return blocks < 1 ? 1 : blocks;
  }
};

}  // namespace gpufilter::kernels
