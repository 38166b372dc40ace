#pragma once
// Launchers of the lab's reduction kernels: the seed's tree steps beyond the library's
// interleaved one (002), the vectorized walk, packed_warp's other shapes, and the
// histogram with a sub-histogram per warp. src is a validated device view; results as
// the library's launchers write them (reduction_launch.hpp).
#include "gpufilter/image_view.hpp"
#include "gpufilter/statistics.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::lab {

enum class StatsStep {
  Sequential,   // shared-memory tree, tid < s does the work: whole warps retire
  FirstAdd,     // each thread adds two pixels while loading: half the threads idle no more
  WarpShuffle,  // first add, then the tree in registers with warp shuffles
  Vectorized,   // grid-stride 16-byte loads, per-thread accumulators, shuffles
};
void launch_stats_step(const ImageView& src, double* result, StatsStep step, const ExecContext& ctx);

// packed_warp's walk shapes (reduction_tuning.hpp) beyond the library's prefetch and
// bulk ones; u8 only: u16 and f32 run the library's packed kernel, as they do there.
enum class PackedWarpLabShape {
  Baseline,  // PackedWarpWalk: no loads ahead
  Deep,      // PackedWarpDeepWalk: twice the groups loaded per step
  Async,     // PackedWarpAsyncWalk: the next step copied ahead into shared memory (cp.async);
             // the baseline where the device's shared memory cannot hold its ring
};
void launch_stats_packed_warp_shape(const ImageView& src, double* result, PackedWarpLabShape shape,
                                    const ExecContext& ctx);

// warp_private: the shared-memory sub-histogram kernel with a copy per warp, equal bins of
// a warp merged (__match_any_sync) before the add; where the copies do not fit, the
// library's shared_private. As kernels::launch_histogram / launch_histogram_counts.
void launch_histogram_warp_private(const ImageView& src, double* result, const HistogramParams& params,
                                   const ExecContext& ctx);
void launch_histogram_counts_warp_private(const ImageView& src, unsigned long long* counts,
                                          const HistogramParams& params, const ExecContext& ctx);

}  // namespace gpufilter::lab
