// The lab's stats kernels (kernels/reduction/stats_kernels.cuh, stats_packed_warp.cuh):
// the seed's tree steps after the interleaved one, the vectorized walk and packed_warp's
// shapes that the prefetch shape superseded.
#include <cstdint>
#include <type_traits>

#include "common/dispatch.cuh"
#include "lab/reduction/reduction_lab_launch.hpp"
#include "lab/reduction/stats_walks.hpp"
#include "reduction/reduction_launch.hpp"
#include "reduction/reduction_tuning.hpp"
#include "reduction/stats_kernels.cuh"
#include "reduction/stats_packed_warp.cuh"

namespace gpufilter::lab {

void launch_stats_step(const ImageView& src, double* result, StatsStep step, const ExecContext& ctx) {
  using kernels::StatsTree;
  kernels::visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    using namespace kernels::stats_detail;
    switch (step) {
      case StatsStep::Sequential: launch_tree<T, C, StatsTree::Sequential>(src, result, "stats_sequential", ctx); return;
      case StatsStep::FirstAdd: launch_tree<T, C, StatsTree::FirstAdd>(src, result, "stats_first_add", ctx); return;
      case StatsStep::WarpShuffle:
        launch_tree<T, C, StatsTree::WarpShuffle>(src, result, "stats_warp_shuffle", ctx);
        return;
      case StatsStep::Vectorized:
        launch<T, C>(stats_vectorized_kernel<T, C>, "stats_vectorized", src.height, src, result, ctx);
        return;
    }
  });
}

void launch_stats_packed_warp_shape(const ImageView& src, double* result, PackedWarpLabShape shape,
                                    const ExecContext& ctx) {
  using namespace kernels;
  if (src.format.type != ChannelType::U8) {
    launch_stats(src, result, ReductionVariant::Packed, ctx);  // the warp-shared thresholds are a u8 technique
    return;
  }
  switch (shape) {
    case PackedWarpLabShape::Baseline:
      launch_packed_warp_walk<PackedWarpWalk, PackedWarpWalk>(src, result, "stats_packed_warp", "stats_packed_warp",
                                                              ctx);
      return;
    case PackedWarpLabShape::Deep:
      launch_packed_warp_walk<PackedWarpDeepWalk, PackedWarpWalk>(src, result, "stats_packed_warp_deep",
                                                                  "stats_packed_warp", ctx);
      return;
    case PackedWarpLabShape::Async:
      launch_packed_warp_walk<PackedWarpAsyncWalk, PackedWarpWalk>(src, result, "stats_packed_warp_async",
                                                                   "stats_packed_warp", ctx);
      return;
  }
}

}  // namespace gpufilter::lab
