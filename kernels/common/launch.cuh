#pragma once
// Launch checking: every launch is followed by check_launch, which turns a launch
// failure (and, with ExecContext::sync_after_launch, an execution failure) into Error.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "common/alignment.hpp"
#include "common/pixel.cuh"
#include "gpufilter/error.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

inline void check_launch(const char* kernel, const ExecContext& ctx) {
  check_cuda(cudaGetLastError(), kernel, __FILE__, __LINE__);
  if (ctx.sync_after_launch) check_cuda(cudaStreamSynchronize(ctx.stream), kernel, __FILE__, __LINE__);
}

// Blocks of `d` items needed to cover `n` items, in 64 bits so no size overflows.
inline long long blocks_for(long long n, int d) { return (n + d - 1) / d; }

// gridDim.x takes up to 2^31 - 1 blocks; a larger count is refused with a message.
inline unsigned grid_x(long long blocks, const char* kernel) {
  if (blocks > 0x7fffffffLL)
    throw Error(ErrorCode::InvalidArgument, std::string(kernel) + ": the image is too wide for one launch (" +
                                                std::to_string(blocks) + " blocks across)");
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks);
}

// gridDim.y takes at most 65535 blocks: kernels walk the rest in a loop with a stride
// of gridDim.y, so any image height works.
constexpr long long kMaxGridY = 65535;
inline unsigned grid_y(long long blocks) {
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks < kMaxGridY ? blocks : kMaxGridY));
}

template <class T, int C>
PitchedView<T, C> pitched(const ImageView& view) {
  return PitchedView<T, C>{static_cast<unsigned char*>(view.data), view.width, view.height, view.pitch};
}

}  // namespace gpufilter::kernels
