#pragma once
// The packed_warp stats kernel's launcher (stats_packed_warp.cu): u8 views of 1, 3 or 4
// channels, validated; channels * kStatsColumns doubles into `result`, one launch.
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// The walk shapes (reduction_tuning.hpp): PackedWarpWalk, PackedWarpPrefetchWalk,
// PackedWarpDeepWalk, PackedWarpAsyncWalk, PackedWarpBulkWalk (the last two run
// packed_warp's where the device's shared memory per block is too small for their ring).
enum class PackedWarpShape { Baseline, Prefetch, Deep, Async, Bulk };

void launch_stats_packed_warp(const ImageView& src, double* result, PackedWarpShape shape, const ExecContext& ctx);

}  // namespace gpufilter::kernels
