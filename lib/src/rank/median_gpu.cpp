// median_filter() on the GPU, and the median op's GPU side.
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/median.hpp"
#include "kernels/rank/median_launch.hpp"
#include "common/op_checks.hpp"
#include "common/operations.hpp"

namespace gpufilter {

static_assert(MedianParams::kMaxRadius == kernels::kMedianMaxRadius, "the library's radii are the kernels'");

void median_filter(const ImageView& src, const ImageView& dst, const MedianParams& params, const Border& border,
                   MedianVariant variant, const ExecContext& ctx) {
  if (params.radius < 1 || params.radius > MedianParams::kMaxRadius)
    throw Error(ErrorCode::InvalidArgument, "median: radius must be in [1, " +
                                                std::to_string(MedianParams::kMaxRadius) + "], got " +
                                                std::to_string(params.radius));
  ops::check_pair("median", src, dst);
  ops::check_device_pair("median", src, dst);
  ops::check_no_overlap("median", src, dst);
  const Border representable = ops::representable_border(border, src.format);
  if (variant == MedianVariant::Naive) {
    kernels::launch_median_naive(src, dst, params.radius, representable, ctx);
  } else if (params.radius == 1 && (variant == MedianVariant::Walk ||
                                     (variant == MedianVariant::Auto && kernels::median_walk_is_auto(src, dst)))) {
    kernels::launch_median_walk_3x3(src, dst, representable, ctx);
  } else {  // Tiled, and Walk and Auto on windows larger than 3x3
    kernels::launch_median_tiled(src, dst, params.radius, representable, ctx);
  }
}

namespace {

void bind_median(Operation& op) {
  op.run_gpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border& border,
                  const std::string& variant, const ExecContext& ctx) {
    const MedianVariant chosen = median_variant_from_name(variant);  // an unknown name fails first
    median_filter(src, dst, MedianParams{static_cast<int>(values.number("radius"))}, border, chosen, ctx);
  };
}

GPUFILTER_BIND_GPU("median", bind_median);

}  // namespace
}  // namespace gpufilter
