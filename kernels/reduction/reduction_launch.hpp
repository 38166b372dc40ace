#pragma once
// Launchers for the reduction family (seed 002: tree reductions in shared memory, and
// past it). src is a validated device view; the result is written asynchronously.
#include "gpufilter/image_view.hpp"
#include "gpufilter/statistics.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// channels * kStatsColumns doubles into `result` (device memory), one launch.
void launch_stats(const ImageView& src, double* result, ReductionVariant variant, const ExecContext& ctx);

// params.bins * channels doubles into `result` (device memory). Where the private
// copies do not fit in shared memory, warp_private falls back to shared_private and
// shared_private to global_atomic.
void launch_histogram(const ImageView& src, double* result, const HistogramParams& params,
                      HistogramVariant variant, const ExecContext& ctx);

}  // namespace gpufilter::kernels
