#pragma once
namespace gpufilter::kernels {

struct ConvolutionTuning {
  static constexpr int kMaxRadius = 32;               // matches GaussianParams::kMaxRadius
  static constexpr int kMaxTaps = 2 * kMaxRadius + 1;
  // Mask slots in __constant__ memory (16 x 65 floats = 4 KiB of the 64 KiB), so
  // calls with different masks on different streams need not wait for each other.
  static constexpr int kMaskSlots = 16;
  // Tiled: 32x8 threads, each computing 4 consecutive rows of a 32x32 output tile.
  // A 32-pixel row keeps a warp's loads and stores coalesced; 32 rows amortise the
  // vertical halo; 4 rows per thread let the vertical pass reuse each buffered row.
  static constexpr int kBlockX = 32;
  static constexpr int kBlockY = 8;
  static constexpr int kTileW = 32;
  static constexpr int kTileH = 32;
  // Naive: 16x16 threads, one pixel each.
  static constexpr int kNaiveBlock = 16;
};

}  // namespace gpufilter::kernels
