#pragma once
// Tuning constants of the geometry family (transpose, quarter turns, flips). The
// figures that justify them are the bench's (docs/techniques/transpose.md).

namespace gpufilter::kernels {

struct GeometryTuning {
  // tiled and tiled_padded: a block of 32 x 8 threads moves a 32x32 tile, each thread
  // four pixels in and four out (several loads in flight, as the seed's unrolling
  // wants), a warp reading whole rows of the tile.
  static constexpr int kTileThreadsX = 32;
  static constexpr int kTileThreadsY = 8;
  // Unrolled naive variants: pixels per thread, blockDim.x apart (the seed's factor).
  static constexpr int kUnroll = 4;
  // Flips: threads per block; each moves one word (16 or 48 bytes) per row it visits.
  static constexpr int kFlipThreads = 256;
  // The wide flip's rows per thread for 16-byte words: 64 bytes of loads in flight per
  // thread (a 1-byte-pixel 8K image is only 33 MB: fewer, fuller threads).
  static constexpr int kFlipRows = 4;
  static constexpr int kFlipNaiveX = 32;
  // Halving (area, 8-bit): 32 x 8 threads, each 16 bytes (or 48) of output from two
  // 32-byte (or 96-byte) source row pieces: 64-192 bytes of loads in flight a thread.
  static constexpr int kHalfThreadsX = 32;
  static constexpr int kHalfThreadsY = 8;
  static constexpr int kFlipNaiveY = 8;
  // Linear enlargement (resize_linear_up.cu): warps per block, each its own output row
  // and a window of up to 32 * 16 + 2 source columns in shared memory (24.7 KiB a
  // block for 3-byte pixels); rows per warp before the grid runs out, so that the
  // column taps (double arithmetic, once a thread) serve several rows.
  static constexpr int kUpWarps = 4;
  static constexpr int kUpRowsPerWarp = 4;
  // Enlargement by exactly 2 of 8-bit images (resize_double_linear.cu): a thread owns 8
  // source bytes of each row of a strip and walks down it. kDoubleStripRows source rows
  // a strip (two rows more are read for the strip's edges, mostly from L2: the
  // neighbouring strips are the block's other warps), halved down to
  // kDoubleMinStripRows while the grid has fewer than kDoubleMinWarps warps (an 8K
  // RGBA image has 120 warps across, an 8K gray one 30), so that enough loads are in
  // flight; kDoubleWarps strips a block. Figures: docs/techniques/transpose.md (resize).
  static constexpr int kDoubleWarps = 4;
  static constexpr int kDoubleStripRows = 16;
  static constexpr int kDoubleMinStripRows = 4;
  static constexpr long long kDoubleMinWarps = 8192;
  // Bilinear rotation (rotate_bilinear_tiled.cu): a warp covers 8 x 4 output pixels
  // (kRotateLanesX lanes across) so that one load instruction's 32 source positions
  // lie in a compact rotated patch (fewer L1 lines than a 32 x 1 row of them); a block
  // is kRotateWarpsX warps across and kRotateSteps warp-heights down, a thread making
  // kRotateSteps pixels (or 4 x kRotateSteps in the wide kernel), stepping its source
  // position in fixed point from one double start.
  static constexpr int kRotateLanesX = 8;
  static constexpr int kRotateWarpsX = 4;
  static constexpr int kRotateSteps = 4;
};

// The fast transpose's shape for a pixel of N bytes: P pixels per word, a block of
// threads_x x threads_y threads over a tile of threads_x * P pixels square (each
// thread moves threads_x * P / threads_y words in and as many out). Words of 4 to 16
// bytes (12 for 3- and 6-byte pixels) make every global access at least 32 bits wide;
// the tile stays within 48 KiB of static shared memory. Candidates to time on the GPU
// (each one line here): 4-byte pixels as 16-byte words {4, 16, 16}.
struct FastTransposeShape {
  int pixels_per_word;
  int threads_x;
  int threads_y;
};
constexpr FastTransposeShape fast_transpose_shape(int pixel_bytes) {
  switch (pixel_bytes) {
    case 1: return {4, 32, 8};   // unused while transpose_bytes.cu takes 1-byte pixels
    case 2: return {2, 32, 8};   // 4-byte words, 64x64 tile
    case 3: return {4, 16, 16};  // 12-byte words, 64x64 tile: 128 would need 49.5 KiB
    case 4: return {2, 32, 8};   // 8-byte words, 64x64 tile
    case 6: return {2, 32, 8};   // 12-byte words, 64x64 tile (24.4 KiB)
    default: return {1, 32, 8};  // 8-, 12- and 16-byte pixels are words already
  }
}

}  // namespace gpufilter::kernels
