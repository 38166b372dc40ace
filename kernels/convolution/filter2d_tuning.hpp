#pragma once
// Launch shapes and limits of the general 2-D filter kernels (filter2d_*.cu).
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

}  // namespace gpufilter::kernels
