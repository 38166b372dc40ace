#pragma once
// Launch checking: every launch is followed by check_launch, which turns a launch
// failure (and, with ExecContext::sync_after_launch, an execution failure) into Error.
#include <cuda_runtime.h>

#include <cstddef>

#include "common/pixel.cuh"
#include "gpufilter/error.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

inline void check_launch(const char* kernel, const ExecContext& ctx) {
  check_cuda(cudaGetLastError(), kernel, __FILE__, __LINE__);
  if (ctx.sync_after_launch) check_cuda(cudaStreamSynchronize(ctx.stream), kernel, __FILE__, __LINE__);
}

inline unsigned ceil_div(int n, int d) { return static_cast<unsigned>((n + d - 1) / d); }

template <class T, int C>
PitchedView<T, C> pitched(const ImageView& view) {
  return PitchedView<T, C>{static_cast<unsigned char*>(view.data), view.width, view.height, view.pitch};
}

}  // namespace gpufilter::kernels
