#pragma once
// The library's own stream-ordered memory pool, one per device. The device's default
// pool gives its memory back to the system at every synchronization (its release
// threshold is 0), so an op called after a cudaStreamSynchronize pays a fresh physical
// allocation for a few bytes of scratch, often longer than a small kernel. This pool
// keeps what it has reserved (up to ScratchPoolTuning::kKeepBytes), so scratch costs a
// sub-allocation; the caller's default pool is left as it is.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpufilter::kernels {

struct ScratchPoolTuning {
  // Memory the pool keeps reserved across synchronizations: scratch is small (partials,
  // counters, histogram counts), so this only bounds a large transient use.
  static constexpr std::size_t kKeepBytes = std::size_t{64} << 20;
};

// The pool of the current device, created on first use.
cudaMemPool_t scratch_pool();

}  // namespace gpufilter::kernels
