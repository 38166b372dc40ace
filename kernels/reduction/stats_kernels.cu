// The library's stats kernels (stats_kernels.cuh): the seed's interleaved tree (the
// naive one), the packed walk (u16 and f32 under every packed variant) and the
// packed_warp shapes auto picks for u8 (stats_packed_warp.cu).
#include <cstdint>
#include <type_traits>

#include "common/dispatch.cuh"
#include "common/occupancy_cache.hpp"
#include "reduction/reduction_launch.hpp"
#include "reduction/reduction_tuning.hpp"
#include "reduction/stats_kernels.cuh"
#include "reduction/stats_packed_warp.hpp"

namespace gpufilter::kernels {
namespace {

using namespace stats_detail;

template <class T, int C>
void launch_packed_warp(const ImageView& src, double* result, PackedWarpShape shape, const ExecContext& ctx) {
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    launch_stats_packed_warp(src, result, shape, ctx);
  } else {
    launch_packed<T, C>(src, result, ctx);  // the warp-shared thresholds are a u8 technique
  }
}

template <class T, int C>
void launch_variant(const ImageView& src, double* result, ReductionVariant variant, const ExecContext& ctx) {
  switch (variant) {
    case ReductionVariant::Interleaved:
      launch_tree<T, C, StatsTree::Interleaved>(src, result, "stats_interleaved", ctx);
      return;
    case ReductionVariant::Packed: launch_packed<T, C>(src, result, ctx); return;
    case ReductionVariant::PackedWarpPrefetch:
      launch_packed_warp<T, C>(src, result, PackedWarpShape::Prefetch, ctx);
      return;
    case ReductionVariant::PackedWarpBulk: launch_packed_warp<T, C>(src, result, PackedWarpShape::Bulk, ctx); return;
    case ReductionVariant::Auto: {
      const bool bulk = ReductionTuning::kAutoBulkForThreeChannels && std::is_same_v<T, std::uint8_t> && C == 3 &&
                        cached_compute_major() >= 9;
      launch_packed_warp<T, C>(src, result, bulk ? PackedWarpShape::Bulk : PackedWarpShape::Prefetch, ctx);
      return;
    }
  }
  throw Error(ErrorCode::InvalidArgument, "stats: unknown variant");
}

}  // namespace

void launch_stats(const ImageView& src, double* result, ReductionVariant variant, const ExecContext& ctx) {
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    launch_variant<T, decltype(channels)::value>(src, result, variant, ctx);
  });
}

}  // namespace gpufilter::kernels
