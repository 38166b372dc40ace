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
  // Zeros before each row in the row buffers, read as the prefix sums before its first
  // element: more than the widest box radius (R <= 224 keeps each of three boxes below
  // about 80).
  static constexpr int kFusedGuard = 96;
  // Rows the block hands from the column walk to the row scans at a time: one warp a
  // row and channel (16 warps).
  static constexpr int fused_batch_rows(int channels) { return 16 / channels; }
  // Rows of a batch whose column reads are issued a phase early, for pixels of one
  // register (8 reads a row: 32 registers); fewer for wider pixels, whose registers
  // would spill (ptxas -v, sm_90: 4 rows of f32x4 spilled 336 bytes, of u8x3 140).
  static constexpr int kFusedRowsAhead = 4;
  // Batches ahead whose leading rows (the walk's newest reads) are prefetched into L2
  // at the start of a batch's column walk, by channel count (0: none). Gray gains at one
  // batch (two and four no better); RGBA runs slower with it (docs/techniques/convolution.md,
  // "L2 prefetch on gray").
  static constexpr int fused_l2_batches_ahead(int channels) { return channels == 1 ? 1 : 0; }
  // Segments a column is cut into are chosen so that the grid fills this many blocks an
  // SM (each segment costs its 2R rows of warm-up again).
  static constexpr int kFusedBlocksPerSm = 2;
};

}  // namespace gpufilter::kernels
