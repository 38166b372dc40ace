#pragma once
#include "fixed_strip_plan.hpp"  // same folder: included from the library and the kernels
namespace gpufilter::kernels {

// The vertical-first 8-bit kernel (separable_packed.cu; docs/techniques/convolution.md,
// "8-bit filters: separable_packed"). A thread owns whole 32-bit words of a row, walks
// down a strip of rows and takes the horizontal neighbours' vertical sums from the
// adjacent lanes of its warp, so no halo bytes are loaded or unpacked twice.
struct SeparablePackedTuning {
  // Largest radius: the window keeps 2R+1 rows of bytes, one register per sample (13
  // rows of 8 on RGBA at 6: the 13x13 mask of the blur op's default sigma 2).
  static constexpr int kMaxRadius = 6;
  // Threads a block (4 warps: each warp's edge lanes only feed their neighbours).
  static constexpr int kBlockThreads = 128;
  // Words a thread owns: gray 1 (4 pixels, so one lane each side covers R <= 4);
  // RGBA 2 (2 pixels): the neighbours' sums cost 8R shuffles a thread whatever the
  // thread's width, so 2 pixels halve the shuffles a sample against 1, for a window
  // of 8 samples instead of 4.
  static constexpr int kGrayWords = 1;
  static constexpr int kRgbaWords = 2;
  // RGB 2 pixels (6 bytes). A thread's bytes start on a word (even lanes) or two bytes
  // into one (odd lanes), so it loads the two words that hold them, the middle word of a
  // lane pair loaded by both (a warp's 64 accesses cover 192 contiguous bytes), and
  // stores a word and a half-word. 4 pixels (3 whole words) through a shared-memory stage
  // took 128 registers and a 20 KB hot loop and ran slower (docs/techniques/convolution.md,
  // "Three channels").
  static constexpr int kRgbPixels = 2;
  // Rows whose words are requested before the current row's math. A row of 128
  // threads moves only 512 (gray) or 1024 (RGBA) bytes, and the register window keeps
  // 40 (gray, 48 registers) or 28 (RGBA, 72) warps an SM: one row ahead keeps about
  // 5-7 KB of loads in flight an SM, less than the DRAM latency needs at 60% of the
  // copy roofline (about 8 KB: 11 bytes/ns of reads an SM times ~700 ns); two rows
  // ahead double it for 1 (gray) or 2 (RGBA) registers more. Further rows were slower
  // (docs/techniques/convolution.md, "8-bit filters: separable_packed"): the rest of the
  // latency is covered from L2 (kL2RowsAhead).
  static constexpr int kRowsAhead = 2;
  // Rows past those whose words are prefetched into L2 (prefetch.global.L2: no register
  // holds them), so the loads above find them there; 3 to 6 rows were no better than 2
  // (docs/techniques/convolution.md, "8-bit filters: separable_packed").
  static constexpr int kL2RowsAhead = 2;
  // Radii whose strips walk most rows in groups that test nothing (separable_packed.cu:
  // a warp whose rows all lie in the image and whose lanes all move whole words), the
  // other rows one at a time through the tested step (unrolled beside the groups, it
  // outgrew the instruction cache). The tests were about 25 of a row's 118 warp
  // instructions. At 7x7 and 9x9 the groups cost 20-60 registers more and ran slower, so
  // larger radii keep the tested walk, unrolled (docs/techniques/convolution.md, "Fast groups").
  static constexpr int kFastGroupsMaxRadius = 2;
  // Blocks an SM that the kernels up to 5x5 are compiled for (__launch_bounds__; ptxas
  // -v on sm_90, two rows ahead). With a minimum of 1, ptxas gives the 5x5 Gaussian 69
  // registers on gray (7 blocks, 28 warps) and 95 on RGBA (5 blocks); 8 blocks cap gray
  // at 64 without spilling. At most 8: sm_75 keeps at most 1024 threads an SM and ptxas
  // rejects a minimum it cannot hold. Larger radii are left to the compiler (up to 92
  // registers gray, 148 RGBA at 9x9; no spills). RGBA takes 6 blocks (80 registers, 16
  // bytes of spill loads): at 7 (72 registers) the weighted kernels spill 176-192 bytes
  // of loads and ran slower (docs/techniques/convolution.md, "What a row costs besides the
  // filter").
  static constexpr int kGrayMinBlocks = 8;
  static constexpr int kRgbaMinBlocks = 6;
  // RGB, Gaussians and boxes alike (one sample a register: 6 a row), ptxas -v on sm_90
  // at 5x5: 72 registers and 8 bytes of spill at 7 blocks; at 8, 64 registers and
  // 96-208 bytes of spill loads.
  static constexpr int kRgbMinBlocks = 7;
  // Square boxes carry two samples a register (half the window's registers): 8 blocks
  // an SM, 64 registers, for both formats.
  static constexpr int kBoxMinBlocks = 8;
  // Premultiplied RGBA up to 5x5: the division at the store keeps a few more registers
  // live than the separate-alpha kernel's 80 (6 blocks); 5 blocks allow 96.
  static constexpr int kRgbaPremultipliedMinBlocks = 5;
  // Weighted masks from 7x7 on, whose window of 2R+1 rows is most of a thread's registers:
  // 4 blocks an SM (128 registers, no spill); at 13x13 only the premultiplied Gaussian fits
  // that, the others take 3 (docs/techniques/convolution.md, "Large radii").
  static constexpr int large_radius_min_blocks(int channels, int radius, bool premultiplied_gaussian) {
    return radius >= 6 && channels > 1 && !premultiplied_gaussian ? 3 : 4;
  }
  // Strip lengths (fixed_strip_plan.hpp: the grid is cut into whole waves of strips
  // between the two bounds), by channels, radius and whether the mask is a box. Short
  // strips win though the 2R warm-up rows become a third of the loads (L2 hits: the strip
  // above read them): more waves leave less of a tail. At 5x5 a strip is whole groups of
  // the fast walk (rows past the last group take the tested step): 10 rows, 15 for the
  // RGBA Gaussian. The wider a weighted mask, the dearer each strip's warm-up (2R+1
  // multiply-adds a sample a row), so the longer its best strip; boxes' rows are cheap and
  // keep short strips (docs/techniques/convolution.md, "The sweeps behind SeparablePackedTuning").
  static constexpr StripBounds strip_rows(int channels, int radius, bool box) {
    if (radius == 2) return channels == 4 && !box ? StripBounds{15, 15} : StripBounds{10, 10};
    // 3x3 boxes on gray and RGB: 12 rows measured faster than 8, 15-16 and 24-48 on both.
    if (radius == 1 && box && channels != 4) return StripBounds{8, 12};
    if (channels == 3) {
      if (radius == 1) return StripBounds{10, 20};
      return radius == 3 || box ? StripBounds{12, 24} : StripBounds{16, 64};
    }
    return radius >= 3 && !box ? StripBounds{12, 24} : StripBounds{8, 16};
  }
  // The largest mask (width or height) that auto takes it for: boxes every size it runs;
  // weighted masks to 5x5, past which the float strip kernel (separable_strip.cuh; on
  // RGB its element columns) was faster, and exact where this kernel's rounding
  // differs by a level in more gray samples of a small image than the ops' 1% allowance
  // (docs/gpu-results.md, "The default calls").
  static constexpr int kLargestSize = 2 * kMaxRadius + 1;
  static constexpr int kWeightedAutoMaxSize = 5;
  static constexpr int auto_max_size(bool box) { return box ? kLargestSize : kWeightedAutoMaxSize; }
  // Whether auto takes it on premultiplied RGBA: boxes (exact sums), not weighted masks.
  // Their vertical pass rounds colour x alpha to whole units, so where the filtered alpha
  // is below a level (a nearly transparent pixel) the colour, divided by it, strays up to
  // two levels (docs/gpu-results.md, "Two chunks and both passes on the tensor cores").
  // The float kernels keep the exact contract there.
  static constexpr bool auto_takes_premultiplied(bool box) { return box; }
};

}  // namespace gpufilter::kernels
