#pragma once
// The packed_warp stats kernel's launcher (stats_packed_warp.cu): u8 views of 1, 3 or 4
// channels, validated; channels * kStatsColumns doubles into `result`, one launch.
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// The library's walk shapes (reduction_tuning.hpp): PackedWarpPrefetchWalk and
// PackedWarpBulkWalk (which runs the prefetch shape where the device's shared memory per
// block is too small for its ring). The lab launches the others (stats_packed_warp.cuh).
enum class PackedWarpShape { Prefetch, Bulk };

void launch_stats_packed_warp(const ImageView& src, double* result, PackedWarpShape shape, const ExecContext& ctx);

}  // namespace gpufilter::kernels
