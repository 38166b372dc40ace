// The lab's warp_private histogram: the shared-memory sub-histogram kernel
// (kernels/reduction/histogram_kernels.cuh) with a copy per warp (slower than
// shared_private, docs/lab.md, "Which variants stay": its match-and-merge costs more than
// it saves).
#include "common/dispatch.cuh"
#include "lab/reduction/reduction_lab_launch.hpp"
#include "reduction/histogram_kernels.cuh"
#include "reduction/reduction_launch.hpp"

namespace gpufilter::lab {
namespace {

using kernels::histogram_detail::Binning;
using kernels::histogram_detail::Publish;

bool fits(const ImageView& src, const HistogramParams& params) {
  return kernels::histogram_detail::private_fits(src.format.channels, params.bins, kernels::ReductionTuning::kWarps);
}

// The kernel into zeroed counts, for views whose copies fit.
auto warp_private(const ImageView& src, const ExecContext& ctx) {
  return [&src, &ctx](const Binning& binning, unsigned long long* counts, const Publish& publish) {
    kernels::visit_format(src.format, [&](auto tag, auto channels) {
      using T = typename decltype(tag)::type;
      constexpr int C = decltype(channels)::value;
      kernels::histogram_detail::launch_private<T, C, kernels::ReductionTuning::kWarps>(src, binning, counts, publish,
                                                                                        ctx);
    });
  };
}

}  // namespace

void launch_histogram_warp_private(const ImageView& src, double* result, const HistogramParams& params,
                                   const ExecContext& ctx) {
  if (!fits(src, params)) {
    kernels::launch_histogram(src, result, params, HistogramVariant::SharedPrivate, ctx);
    return;
  }
  kernels::histogram_result(src, result, params, warp_private(src, ctx), ctx);
}

void launch_histogram_counts_warp_private(const ImageView& src, unsigned long long* counts,
                                          const HistogramParams& params, const ExecContext& ctx) {
  if (!fits(src, params)) {
    kernels::launch_histogram_counts(src, counts, params, HistogramVariant::SharedPrivate, ctx);
    return;
  }
  kernels::histogram_counts(src, counts, params, warp_private(src, ctx), ctx);
}

}  // namespace gpufilter::lab
