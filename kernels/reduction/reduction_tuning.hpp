#pragma once
namespace gpufilter::kernels {

struct ReductionTuning {
  // 256 threads: the seed's tree over a power-of-two block, 8 warps per block so the
  // shuffle variants end with one warp over 8 warp results. The stats tree variants keep
  // 40 bytes per channel per thread in shared memory (40 KiB for 4 channels), under the
  // 48 KiB a block gets without opting in.
  static constexpr int kThreads = 256;
  static constexpr int kWarps = kThreads / 32;
  // 16-byte loads each thread has in flight per step of the vectorized walk: enough
  // independent loads to cover DRAM latency with a grid of one resident wave (seed 003).
  static constexpr int kLoadsInFlight = 4;
  // Resident blocks per SM the grid is sized for at most (the occupancy calculator
  // decides below that): one wave, so the last-block combine reads few partials.
  static constexpr int kMaxBlocksPerSm = 8;
  // Shared memory the histogram's private copies may take per block without opting in.
  static constexpr int kHistogramSharedBytes = 48 * 1024;
};

}  // namespace gpufilter::kernels
