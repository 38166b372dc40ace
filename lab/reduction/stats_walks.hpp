#pragma once
// The stats walks the library does not ship, timed beside its own (stats_steps.cu): shapes
// of reduction_tuning.hpp's SegmentWalk family.
#include "reduction/reduction_tuning.hpp"

namespace gpufilter::kernels {

// `packed_warp_deep`: more groups per step (128 bytes per thread for gray and RGBA, 144
// for three channels), no prefetch: more bytes in flight per load phase, the same gaps
// while computing; for comparison with the prefetch. ptxas -v, sm_90: all 2 blocks (128
// registers); at 3 (80 registers) gray spilled 24 bytes and RGBA 832; three channels
// with four groups spilled 308 bytes at 128 registers, hence three.
struct PackedWarpDeepWalk : SegmentWalk {
  static constexpr int kGroups1 = 2 * ReductionTuning::kGroupsInFlight;
  static constexpr int kGroups3 = 3;
  static constexpr int kGroups4 = 2 * ReductionTuning::kGroupsInFlight;
  static constexpr int kMinBlocks1 = 2;
  static constexpr int kMinBlocks3 = 2;
  static constexpr int kMinBlocks4 = 2;
};

// `packed_warp_async`: packed_warp's steps, copied 3 steps ahead into a per-warp ring of
// 4 steps in shared memory with cp.async (sm_80+; a plain copy before). The data in
// flight takes no registers, so the kernel keeps packed_warp's register budget and
// blocks per SM, and 3 of the ring's 4 steps are in flight while a warp computes (a
// ring of 2 larger steps keeps only half of it in flight for the same memory): steps
// of 2 chunks for gray and RGBA, one 48-byte group for three channels. Ring: 4 steps x
// 32 lanes x 32 bytes = 4 KiB per warp for gray and RGBA (32 KiB a block, 72 KiB with
// RGBA's slots: 3 blocks an SM on sm_90), 6 KiB for three channels. Where the device's
// shared memory per block is smaller (sm_75: 64 KiB), packed_warp runs instead.
// ptxas -v, sm_90, at packed_warp's blocks per SM: 63 / 96 / 80 registers for gray /
// RGB / RGBA, no spill (RGB's 2 blocks are also what its 78 KiB of shared memory allow).
struct PackedWarpAsyncWalk : PackedWarpBulkWalk {
  static constexpr bool kBlockStages = false;  // each lane copies its own steps
};

}  // namespace gpufilter::kernels
