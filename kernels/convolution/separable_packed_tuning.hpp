#pragma once
#include "fixed_strip_plan.hpp"  // same folder: included from the library and the kernels
namespace gpufilter::kernels {

// The vertical-first 8-bit kernel (separable_packed.cu; docs/techniques/convolution.md,
// "8-bit filters: separable_packed"). A thread owns whole 32-bit words of a row, walks
// down a strip of rows and takes the horizontal neighbours' vertical sums from the
// adjacent lanes of its warp, so no halo bytes are loaded or unpacked twice.
struct SeparablePackedTuning {
  // Largest radius: the window keeps 2R+1 rows of bytes, one register per sample.
  static constexpr int kMaxRadius = 4;
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
  // stores a word and a half-word. Session 9 to 13 ran 4 pixels (3 whole words, 12
  // samples) through a warp's stage in shared memory: 128 registers, 4 blocks an SM
  // (18.9% achieved occupancy) and a hot loop of about 1280 instructions (20 KB) whose
  // warps waited for instruction fetch 23% of the time (Nsight Compute, session 14);
  // 8K 5x5 Gaussian 197.8 µs, box 179.4.
  static constexpr int kRgbPixels = 2;
  // Rows whose words are requested before the current row's math. A row of 128
  // threads moves only 512 (gray) or 1024 (RGBA) bytes, and the register window keeps
  // 40 (gray, 48 registers) or 28 (RGBA, 72) warps an SM: one row ahead keeps about
  // 5-7 KB of loads in flight an SM, less than the DRAM latency needs at 60% of the
  // copy roofline (about 8 KB: 11 bytes/ns of reads an SM times ~700 ns); two rows
  // ahead double it for 1 (gray) or 2 (RGBA) registers more. Further rows did not
  // help (below): the rest of the latency is covered from L2.
  static constexpr int kRowsAhead = 2;
  // Rows past those whose words are prefetched into L2 (prefetch.global.L2: no register
  // holds them), so the loads above find them there. More rows in registers made every
  // shape slower (3, 4 and 6 rows: gray 5x5 Gaussian 95.7, 100.8 and 110.1 us against
  // 91.7 at 2), the L2 prefetch faster (H100, 8K, session 7): RGBA 5x5 box 196.3 ->
  // 155.5 us and Gaussian 207.4 -> 188.7 at 2 rows, 156.2 / 189.6 at 3, 159.0 / 192.4 at
  // 4, 162.4 / 191.9 at 6; gray Gaussian 88.8 -> 83.3 (gray box 89.0 -> 93.9).
  static constexpr int kL2RowsAhead = 2;
  // Radii whose strips walk most rows in groups that test nothing (separable_packed.cu:
  // a warp whose rows all lie in the image and whose lanes all move whole words), the
  // other rows one at a time through the tested step. Nsight Compute (H100, 8K gray 5x5
  // Gaussian, session 15): about 25 of a row's 118 warp instructions were those tests
  // and their branches; 33.2M -> 29.5M instructions in all. The tested rows unrolled
  // 2R+1 times beside the fast groups outgrew the instruction cache (no-instruction
  // stalls 11.5% -> 17.3% of samples, gray no faster); one tested row a turn keeps the
  // code small (5.0%). 8K 5x5, µs, Gaussian / box: gray 62.9 / 57.8 -> 61.0 / 57.1, RGB
  // 137.8 / 134.9 -> 130.2 / 127.6, RGBA 149.6 / 123.8 -> 135.4 / 118.5. At 7x7 and 9x9
  // the fast groups cost 20-60 registers more (RGBA 9x9 Gaussian 209) and ran slower, so
  // larger radii keep the tested walk, unrolled.
  static constexpr int kFastGroupsMaxRadius = 2;
  // Blocks an SM that the kernels up to 5x5 are compiled for (__launch_bounds__; ptxas
  // -v on sm_90, two rows ahead). With a minimum of 1, ptxas gives the 5x5 Gaussian 69
  // registers on gray (7 blocks, 28 warps) and 95 on RGBA (5 blocks); 8 blocks cap gray
  // at 64 without spilling. At most 8: sm_75 keeps at most 1024 threads an SM and ptxas
  // rejects a minimum it cannot hold. Larger radii are left to the compiler (up to 92
  // registers gray, 148 RGBA at 9x9; no spills). RGBA takes 6 blocks (80 registers, 16
  // bytes of spill loads): at 7 (72 registers) the weighted kernels spill 176-192 bytes
  // of loads since the stepped addresses (session 14), and the 8K 5x5 Gaussian ran
  // 151.7 µs against 148.1-148.5 at 6 (H100, same build; the box, at kBoxMinBlocks,
  // 123.3-123.6 either way).
  static constexpr int kGrayMinBlocks = 8;
  static constexpr int kRgbaMinBlocks = 6;
  // RGB, Gaussians and boxes alike (one sample a register: 6 a row), ptxas -v on sm_90
  // at 5x5: 72 registers and 8 bytes of spill at 7 blocks; at 8, 64 registers and
  // 96-208 bytes of spill loads.
  static constexpr int kRgbMinBlocks = 7;
  // Square boxes carry two samples a register (half the window's registers): 8 blocks
  // an SM, 64 registers, for both formats.
  static constexpr int kBoxMinBlocks = 8;
  // Strip lengths (fixed_strip_plan.hpp: the grid is cut into whole waves of strips
  // between the two bounds), by channels, radius and whether the mask is a box. Gray
  // and RGBA walk short strips: 8 to 16 rows, which the plan makes 13 rows in 5 waves at
  // 8K, though the 2R warm-up rows are then a third of the loads (L2 hits: the strip
  // above read them). Measured
  // (H100, 8K, 5x5, session 13, docs/gpu-results.md), fixed lengths of 4 / 8 / 10 / 12 /
  // 16 / 20 rows, against 16-64 (33 rows in 2 waves): gray Gaussian 76.4 / 67.8 / 66.4 /
  // 67.3 / 67.6 / 68.8 µs against 78.6; RGBA box 145.8 / 125.8 / 123.3 / 123.8 / 126.8 /
  // 132.9 against 152.3. Nsight Compute, gray Gaussian: SMs busy 85% of the kernel's
  // cycles against 80%, achieved occupancy 33% against 27%, L2 hits 68% against 65%.
  // Session 15 (H100, 8K, Gaussian / box µs, docs/gpu-results.md): RGB's 2-pixel
  // threads at 5x5, bounds of 8-16 / 10-20 / 12-24 / 16-32 / 24-48 / 16-64: 139.3 / 136.3
  // / 138.2 / 144.3 / 150.0 / 159.7 and 136.0 / 134.6 / 136.7 / 143.8 / 150.3 / 158.0; at
  // 7x7 8-16 / 12-24 / 16-64: 201.0 / 192.6 / 196.3 and 176.2 / 167.3 / 178.6; at 9x9
  // 274.2 / 263.2 / 254.3 and 201.8 / 194.2 / 196.4. Gray and RGBA at 7x7 and 9x9, 8-16 /
  // 12-24 / 16-32 / 16-64: gray 7x7 88.6 / 86.8 / 88.9 / 105.0 and 65.0 / 65.9 / 70.8 /
  // 82.6, 9x9 102.1 / 100.8 / 102.6 / 115.4 and 70.7 / 71.7 / 74.5 / 85.0; RGBA 7x7 218.9
  // / 214.5 / 216.3 / 225.6 and 145.7 / 146.7 / 148.6 / 171.9, 9x9 298.0 / 288.4 / 288.0 /
  // 299.5 and 160.4 / 159.8 / 160.4 / 178.5. RGBA 5x5 at 6-12 / 8-16 / 10-20: 150.6 /
  // 148.9 / 148.9 and 121.0 / 123.9 / 130.9. The wider a weighted mask, the dearer each
  // strip's 2R warm-up rows (2R+1 multiply-adds a sample each), so the longer its best
  // strip; boxes' rows are cheap and keep short strips.
  // At 5x5, since the fast groups (kFastGroupsMaxRadius), strips of whole groups of 5
  // rows (session 15, fixed lengths of 10 / 15 / 20 / 25 / 30 rows against the bounds
  // above; Gaussian / box µs): gray 58.0 / 58.7 / 62.5 / 65.7 / 71.2 and 54.4 / 56.0 /
  // 60.4 / 63.1 / 70.2 against 60.8 / 56.8; RGB 126.6 / 128.2 / 130.4 / 133.8 / 139.9 and
  // 123.8 / 125.4 / 128.2 / 130.6 / 135.3 against 131.0 / 127.4; RGBA 137.5 / 134.0 /
  // 136.1 / 139.3 / 144.3 and 117.3 / 118.3 / 126.3 / 132.2 / 137.2 against 135.5 /
  // 118.3. A strip's rows past its last whole group take the slower tested step.
  static constexpr StripBounds strip_rows(int channels, int radius, bool box) {
    if (radius == 2) return channels == 4 && !box ? StripBounds{15, 15} : StripBounds{10, 10};
    if (channels == 3) {
      if (radius == 1) return StripBounds{10, 20};
      return radius == 3 || box ? StripBounds{12, 24} : StripBounds{16, 64};
    }
    return radius >= 3 && !box ? StripBounds{12, 24} : StripBounds{8, 16};
  }
  // The largest mask (width or height) that auto takes it for, per format, from the bench
  // against the float `separable` (H100, 8K, alpha separate). Gray, 5x5 (session 13):
  // Gaussian 66.6 µs and box 60.0 against 79.2 / 79.2; 7x7 (session 15) 88.3 / 65.1
  // against 90.2 / 90.8; 9x9 102.2 / 70.9 (100.8 with 12-24 row strips) against 100.1 /
  // 99.9: boxes to 9x9, weighted masks to 7x7. RGB (session 15, the strips above): 5x5
  // 136.3 / 134.6, 7x7 192.6 / 167.3, 9x9 254.3 / 196.4 against 219.5 / 219.4, 297.4 /
  // 296.9, 334.4 / 334.9.
  // RGBA at every size (session 7: 5x5 188.6 / 153.1 against 245.8 / 246.0; session 9:
  // 9x9 Gaussian 342.3 against 364.4).
  static constexpr int kLargestSize = 2 * kMaxRadius + 1;
  static constexpr int kGrayWeightedAutoMaxSize = 7;
  static constexpr int auto_max_size(int channels, bool box) {
    return channels == 1 && !box ? kGrayWeightedAutoMaxSize : kLargestSize;
  }
};

}  // namespace gpufilter::kernels
