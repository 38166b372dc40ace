#pragma once
namespace gpufilter::kernels {

struct SeparableTuning {
  // The one-kernel tiled version keeps both factors of a mask in a __constant__ slot;
  // beyond this radius its tile and halo outgrow shared memory on most GPUs anyway, and
  // the two-pass version takes over.
  static constexpr int kMaxTiledRadius = 32;
  static constexpr int kMaxTiledTaps = 2 * kMaxTiledRadius + 1;
  // Mask slots in __constant__ memory (16 x 2 x 65 floats = 8 KiB of the 64 KiB), so
  // calls with different masks on different streams need not wait for each other.
  static constexpr int kMaskSlots = 16;
  // Tiled: 32x8 threads; each computes P adjacent pixels in x times kRowsPerThread
  // consecutive rows. 32 threads across a row keep a warp's accesses coalesced and
  // conflict-free; 32 rows per tile amortise the vertical halo; several outputs per
  // thread let each shared value (and its int->float conversion) serve all of them.
  static constexpr int kBlockX = 32;
  static constexpr int kBlockY = 8;
  static constexpr int kRowsPerThread = 4;
  // Radii up to this get a kernel each (when x and y radii are equal), with the radius
  // known at compile time: fully unrolled loops, taps as immediates, no per-tap bounds
  // checks. Each one adds 45 kernels (9 formats x 5 borders) to the build.
  static constexpr int kMaxUnrolledRadius = 4;
  // Tile loads each thread has in flight before it stores them to shared memory.
  static constexpr int kLoadBatch = 4;
  // Sub-word pixels load as 32-bit words, a thread's P pixels store as words and 4-float
  // sums move as 16-byte shared accesses (80 -> 64 registers), after a plain path for convex
  // linear masks (no alpha test, output rule or clamp) (docs/techniques/convolution.md,
  // "The variants").
  // Narrow pixels get more per thread, so a thread's loads and work are not tiny.
  static constexpr int pixels_per_thread(unsigned long pixel_bytes) {
    return pixel_bytes == 1 ? 4 : pixel_bytes <= 4 ? 2 : 1;
  }
  // Two-pass version: the largest factor (sigma 100 at 3 sigma: 601 taps), two slots of
  // both factors (2 x 2 x 601 floats = 9.4 KiB of __constant__), 256-thread blocks.
  static constexpr int kMaxTaps = 601;
  static constexpr int kTwoPassSlots = 2;
  static constexpr int kTwoPassBlockX = 64;
  static constexpr int kTwoPassBlockY = 4;
};

}  // namespace gpufilter::kernels
