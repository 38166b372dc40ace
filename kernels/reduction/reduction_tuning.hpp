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

  // The segment walker (packed stats, lane-private histogram): groups loaded together per
  // step. Four 16-byte chunks (64 bytes in flight per thread, as kLoadsInFlight); two
  // 48-byte groups for three-channel images (96 bytes; more costs registers).
  static constexpr int kGroupsInFlight = 4;
  static constexpr int kGroupsInFlight3 = 2;

  // packed_warp stats: blocks of kThreads per SM the register allocation must allow
  // (__launch_bounds__ min-blocks), by channel count. The walk is bound by bytes in
  // flight per SM, not by instructions: `packed` (128 registers, 2 blocks) kept 32 KiB
  // in flight per SM at most and reached 24% of DRAM bandwidth. Each is the most blocks
  // for which ptxas -v reports no spill: gray 4 (64 registers), RGBA 3 (80: its
  // 64-register build spilled), three channels 2 (three patterns of lane sums and
  // thresholds, 48-byte groups).
  static constexpr int kPackedWarpMinBlocks1 = 4;
  static constexpr int kPackedWarpMinBlocks3 = 2;
  static constexpr int kPackedWarpMinBlocks4 = 3;

  // lane_private histogram: 32 copies of the sub-histogram, copy l for the lanes l of
  // every warp, word (bin * 32 + l): each lane has its own bank, so a warp's atomics
  // never conflict, random or constant data alike. 32-bit counters: no flush before
  // the block's end. 4 channels x 256 bins x 32 copies x 4 bytes = 128 KiB: 1024-thread
  // blocks keep an SM's load in flight with one block. Where the 32 copies do not fit
  // the device's shared memory, 8 copies (lanes l, l+8, l+16, l+24 share one: at most
  // 4-way conflicts), then shared_private.
  static constexpr int kLaneThreads = 1024;
  static constexpr int kLaneCopies = 32;
  static constexpr int kLaneCopiesSmall = 8;
};

}  // namespace gpufilter::kernels
