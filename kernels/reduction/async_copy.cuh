#pragma once
// 16-byte copies from global to shared memory that complete in the background (cp.async,
// sm_80 and later), for the shared-memory ring of the segment walker. Before sm_80 the
// copy is an ordinary load and store, done when the call returns, and commit/wait are
// no-ops: the same walk, without the overlap.
#include <cuda_runtime.h>

namespace gpufilter::kernels {

// Starts copying 16 bytes (both addresses 16-byte aligned), past L1 (.cg: streamed once).
__device__ __forceinline__ void copy16_async(int4* dst_shared, const int4* src_global) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(dst_shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src_global) : "memory");
#else
  *dst_shared = __ldg(src_global);
#endif
}

// Closes the group of this thread's copies started since the last commit.
__device__ __forceinline__ void commit_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most N of this thread's committed groups are still in flight; the
// data of the others is then visible to this thread.
template <int N>
__device__ __forceinline__ void wait_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

}  // namespace gpufilter::kernels
