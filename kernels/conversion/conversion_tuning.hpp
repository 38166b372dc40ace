#pragma once
// Tuning constants of the conversions' `vec16` kernels (docs/techniques/memory-access.md).

namespace gpufilter::kernels {

struct ConversionTuning {
  // Pixels per thread: 16 is the smallest count whose bytes are whole 16-byte chunks
  // for 1-, 3- and 4-byte pixels alike (16, 48, 64 bytes), so every access is 16 bytes
  // wide and a thread keeps 48-64 bytes of loads in flight.
  static constexpr int kVecPixels = 16;
  // 32 groups (512 pixels) of a row by 8 rows: a warp's loads cover 512-2048
  // contiguous bytes of one row.
  static constexpr int kVecThreadsX = 32;
  static constexpr int kVecThreadsY = 8;
};

}  // namespace gpufilter::kernels
