// image_stats() and histogram() on the GPU, and the stats and histogram ops' GPU sides.
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/statistics.hpp"
#include "kernels/reduction/reduction_launch.hpp"
#include "common/op_checks.hpp"
#include "common/operations.hpp"
#include "statistics/reduction_variants.hpp"

namespace gpufilter {

void image_stats(const ImageView& src, double* device_result, ReductionVariant variant, const ExecContext& ctx) {
  ops::check_device_source("stats", src);
  if (device_result == nullptr) throw Error(ErrorCode::InvalidArgument, "stats: the result pointer is null");
  // 64-bit sums of squares hold 65535^2 * 2^32 at most.
  if (static_cast<unsigned long long>(src.width) * static_cast<unsigned long long>(src.height) > (1ULL << 32))
    throw Error(ErrorCode::InvalidArgument, "stats: images of more than 2^32 pixels are not supported");
  kernels::launch_stats(src, device_result, variant, ctx);
}

void histogram(const ImageView& src, double* device_counts, const HistogramParams& params, HistogramVariant variant,
               const ExecContext& ctx) {
  ops::check_device_source("histogram", src);
  check_histogram_params(params);
  if (device_counts == nullptr) throw Error(ErrorCode::InvalidArgument, "histogram: the result pointer is null");
  kernels::launch_histogram(src, device_counts, params, variant, ctx);
}

namespace {

void bind_stats(Operation& op) {
  op.run_gpu_data = [](const ImageView& src, double* result, const ParamValues&, const std::string& variant,
                       const ExecContext& ctx) { image_stats(src, result, reduction_variant_from_name(variant), ctx); };
}

void bind_histogram(Operation& op) {
  op.run_gpu_data = [](const ImageView& src, double* result, const ParamValues& values, const std::string& variant,
                       const ExecContext& ctx) {
    histogram(src, result, ops::histogram_params(src.format, values), histogram_variant_from_name(variant), ctx);
  };
}

GPUFILTER_BIND_GPU("stats", bind_stats);
GPUFILTER_BIND_GPU("histogram", bind_histogram);

}  // namespace
}  // namespace gpufilter
