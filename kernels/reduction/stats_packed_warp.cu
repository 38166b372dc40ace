// The library's packed_warp stats shapes: the kernel of stats_packed_warp.cuh with the
// next step's loads issued before this step's arithmetic (prefetch), or whole images
// copied ahead a block stage at a time (bulk, sm_90's bulk copies; prefetch where the
// device's shared memory cannot hold its ring).
#include "reduction/stats_packed_warp.hpp"

#include "reduction/reduction_tuning.hpp"
#include "reduction/stats_packed_warp.cuh"

namespace gpufilter::kernels {

void launch_stats_packed_warp(const ImageView& src, double* result, PackedWarpShape shape, const ExecContext& ctx) {
  if (shape == PackedWarpShape::Bulk)
    launch_packed_warp_walk<PackedWarpBulkWalk, PackedWarpPrefetchWalk>(src, result, "stats_packed_warp_bulk",
                                                                        "stats_packed_warp_prefetch", ctx);
  else
    launch_packed_warp_walk<PackedWarpPrefetchWalk, PackedWarpPrefetchWalk>(src, result, "stats_packed_warp_prefetch",
                                                                            "stats_packed_warp_prefetch", ctx);
}

}  // namespace gpufilter::kernels
