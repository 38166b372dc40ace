#pragma once
// Tuning of the stacked-box Gaussian (box_stack.cu, docs/techniques/convolution.md,
// "Large sigma: stacked box filters").
namespace gpufilter::kernels {

struct BoxStackTuning {
  // Boxes per axis. Three is the classic choice (Wells 1986, Kovesi 2010): its step
  // response stays within 2.8 levels of 255 of the truncated Gaussian for sigma >= 3
  // (tests/box_stack_plan_test.cpp); each further box doubles the reads and running sums
  // a step (2^K reads, 2^K - 1 sums) and gains about half a level.
  static constexpr int kBoxes = 3;
  // Below this sigma (on either axis) the integer box widths cannot follow the Gaussian
  // closely (4 levels off at sigma 2.4) and the exact separable kernel is cheap anyway:
  // an explicit request falls back to it.
  static constexpr double kMinSigma = 3.0;
  // Auto picks box_stack from this radius (3 sigma) on. Measured on an H100 at 8K RGBA u8
  // (session 3): box_stack 2.55 ms at sigma 8 and 2.73 ms at sigma 30; separable 3.53 ms
  // at sigma 8 (radius 24), growing about linearly with the radius (1.57 ms at radius 16
  // from the 4K sweep, x4), so they cross near radius 20.
  static constexpr int kAutoMinRadius = 20;
  // A thread walks one column of a segment of rows, after 2R rows of warm-up (R: the
  // stack's total radius). Segments of at least kSegmentPerRadius * R rows keep the
  // warm-up under half of the walk at any sigma; kMinSegmentRows keeps the short-radius
  // cases from drowning in segment starts.
  static constexpr int kMinSegmentRows = 256;
  static constexpr int kSegmentPerRadius = 4;
  // Outputs are staged in a tile of steps x 32 columns per warp and written transposed,
  // so each store covers consecutive pixels of one output row: 32 steps for pixels of
  // up to 4 bytes, 16 for wider ones (128 to 256 bytes a row either way). The smaller
  // tile leaves more of the SM's L1 to the lagged reads, which re-read rows up to 2R + 3
  // back (an estimate to be profiled: 8 KiB per warp for u16x4 instead of 17).
  static constexpr int kMaxTileSteps = 32;
  static constexpr int tile_steps(unsigned long pixel_bytes) { return pixel_bytes <= 4 ? 32 : 16; }
  // Two warps per block keep the largest tile (f32x4: 2 x 16 x 33 x 16 bytes) far within
  // static shared memory.
  static constexpr int kWarpsPerBlock = 2;

  // The fused kernel (box_stack_fused.cu): a block of kFusedThreads threads walks as many
  // columns, the strip of output columns it writes plus the row stack's reach R on each
  // side, so a strip is kFusedThreads - 2R wide; from a strip narrower than
  // kFusedMinStripWidth on (R > 224, sigma above about 75) the halo would cost more than
  // the scratch image saves, and the two-pass kernel runs.
  static constexpr int kFusedThreads = 512;
  static constexpr int kFusedMinStripWidth = 64;
  // Rows the block hands from the column walk to the row scans at a time: one warp a
  // row and channel (16 warps).
  static constexpr int fused_batch_rows(int channels) { return 16 / channels; }
  // Segments a column is cut into are chosen so that the grid fills this many blocks an
  // SM (each segment costs its 2R rows of warm-up again).
  static constexpr int kFusedBlocksPerSm = 2;
};

}  // namespace gpufilter::kernels
