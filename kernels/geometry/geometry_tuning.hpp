#pragma once
// Tuning constants of the geometry family (transpose, quarter turns, flips). The
// figures that justify them are the bench's (docs/techniques/transpose.md).

namespace gpufilter::kernels {

struct GeometryTuning {
  // Tiled transposes: a block of kTileThreadsX x kTileThreadsY threads moves a tile of
  // kTileThreadsX * P pixels square (P pixels per word), each thread
  // kTileThreadsX * P / kTileThreadsY words in and out: several loads in flight per
  // thread, as the seed's unrolling wants, with a warp reading whole rows of the tile.
  static constexpr int kTileThreadsX = 32;
  static constexpr int kTileThreadsY = 8;
  // 3-byte pixels move in 12-byte words of 4 pixels; a 128-pixel tile would need
  // 49.5 KiB of shared memory (over the 48 KiB static limit), so their warps read
  // half rows of a 64-pixel tile instead.
  static constexpr int kTileThreadsXNarrow = 16;
  static constexpr int kTileThreadsYNarrow = 16;
  // Unrolled naive variants: pixels per thread, blockDim.x apart (the seed's factor).
  static constexpr int kUnroll = 4;
  // Flips: threads per block; each moves one word (16 or 48 bytes) per row it visits.
  static constexpr int kFlipThreads = 256;
  static constexpr int kFlipNaiveX = 32;
  static constexpr int kFlipNaiveY = 8;
};

// Pixels per word of the fast transpose, by pixel size in bytes: words of 4 to 16
// bytes (12 for 3- and 6-byte pixels) so that every global access is at least 32 bits
// wide, while a tile of (threads x P)^2 pixels stays within 48 KiB of shared memory.
constexpr int fast_transpose_pixels_per_word(int pixel_bytes) {
  switch (pixel_bytes) {
    case 1: return 4;   // 4-byte words, 128x128 tile (16.1 KiB)
    case 2: return 2;   // 4-byte words, 64x64 tile
    case 3: return 4;   // 12-byte words, 64x64 tile (narrow blocks)
    case 4: return 2;   // 8-byte words, 64x64 tile
    case 6: return 2;   // 12-byte words, 64x64 tile
    default: return 1;  // 8-, 12- and 16-byte pixels are words already
  }
}

}  // namespace gpufilter::kernels
