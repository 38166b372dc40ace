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
  // stats `auto`: packed_warp_bulk for u8 three-channel images on GPUs with bulk copies
  // (sm_90 on), packed_warp_prefetch for everything else: the bulk walk is the faster on
  // RGB and the slower on gray and RGBA. Without bulk copies it runs as packed_warp_async,
  // slower than prefetch (docs/techniques/reduction.md, "Loads in flight").
  static constexpr bool kAutoBulkForThreeChannels = true;
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

// Walk shapes of the segment walker (segment_walker.cuh): groups loaded per step by
// channel count (kGroups4 also for two channels), and kPrefetch, the steps whose loads
// are issued before a step's arithmetic (0: load, then compute). The packed_warp stats
// kernel (stats_packed_warp.cu) is one template over these shapes, with kMinBlocks*
// the blocks of ReductionTuning::kThreads per SM its registers must allow
// (__launch_bounds__ min-blocks; each the most for which ptxas -v reports no spill on
// sm_90).

// packed stats and the lane_private histogram.
struct SegmentWalk {
  static constexpr int kGroups1 = ReductionTuning::kGroupsInFlight;
  static constexpr int kGroups3 = ReductionTuning::kGroupsInFlight3;
  static constexpr int kGroups4 = ReductionTuning::kGroupsInFlight;
  static constexpr int kPrefetch = 0;
  static constexpr bool kSharedRing = false;  // true: the steps ahead wait in shared memory
  static constexpr bool kBlockStages = false;  // true: whole images in block stages of bulk copies
};

// `packed_warp`: the walk of SegmentWalk. Its loads are issued at the start of a step and
// consumed at once: while a warp computes it has nothing in flight, and at 3 blocks of
// 256 an SM (RGBA) the SM keeps 48 KiB in flight at best.
struct PackedWarpWalk : SegmentWalk {
  static constexpr int kMinBlocks1 = ReductionTuning::kPackedWarpMinBlocks1;
  static constexpr int kMinBlocks3 = ReductionTuning::kPackedWarpMinBlocks3;
  static constexpr int kMinBlocks4 = ReductionTuning::kPackedWarpMinBlocks4;
};

// `packed_warp_prefetch`: the same steps, software-pipelined in registers: step s + 1's
// loads are issued before step s's arithmetic, so every thread has a step in flight
// while it computes. Two steps of data live in registers. ptxas -v, sm_90: gray 4
// blocks of two groups a step (with four groups at 4 blocks, 64 registers, it spilled
// 64 bytes), three channels 2 (128), RGBA 2 (126; at 3, 80 registers, it spilled 40
// bytes). Gray walks two groups at 4 blocks, faster than four at 3; RGBA keeps four at 2,
// the fastest of its shapes (docs/techniques/reduction.md, "Loads in flight").
struct PackedWarpPrefetchWalk : SegmentWalk {
  static constexpr int kPrefetch = 1;
  static constexpr int kGroups1 = ReductionTuning::kGroupsInFlight / 2;
  static constexpr int kMinBlocks1 = 4;
  static constexpr int kMinBlocks3 = 2;
  static constexpr int kMinBlocks4 = 2;
};

// `packed_warp_bulk` (the library's stats walk where the GPU has bulk copies): the steps
// of packed_warp (2 chunks a step for gray and RGBA, one 48-byte group for three
// channels) copied 3 steps ahead into a ring in shared memory; a stage is K groups per
// thread of the block (8 KiB for gray and RGBA, 12 KiB for three channels), copied by one
// thread with one bulk copy (cp.async.bulk, sm_90 and later). Nothing in flight costs
// registers or an instruction per lane; the kernel keeps packed_warp's register budget
// and blocks per SM. Rows of sub-views and GPUs before sm_90 walk the ring lane by lane
// (cp.async, the lab's packed_warp_async), and where the device's shared memory per block
// is smaller (sm_75: 64 KiB) the prefetch walk runs instead.
struct PackedWarpBulkWalk : PackedWarpWalk {
  static constexpr int kGroups1 = 2;
  static constexpr int kGroups3 = 1;
  static constexpr int kGroups4 = 2;
  static constexpr int kPrefetch = 3;
  static constexpr bool kSharedRing = true;
  static constexpr bool kBlockStages = true;
};

}  // namespace gpufilter::kernels
