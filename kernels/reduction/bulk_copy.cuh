#pragma once
// Bulk asynchronous copies from global to shared memory (cp.async.bulk, sm_90 and later)
// for the block-wide stages of the segment walker: one thread starts the copy of a whole
// stage and an mbarrier counts its bytes as they land, so the data in flight costs
// neither registers nor an instruction per lane. Only compiled for sm_90 and later
// (GPUFILTER_BULK_COPIES); other architectures walk with per-lane cp.async instead.
#include <cuda_runtime.h>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define GPUFILTER_BULK_COPIES 1
#endif

namespace gpufilter::kernels {

#ifdef GPUFILTER_BULK_COPIES

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// One thread initialises the block's barriers (one arrival a phase: the copy's issuer),
// then the fence makes them visible to the copy engine; a __syncthreads must follow.
__device__ __forceinline__ void init_copy_barrier(unsigned long long* barrier) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(shared_address(barrier)) : "memory");
}
__device__ __forceinline__ void fence_copy_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// Starts copying `bytes` (a multiple of 16, both addresses 16-byte aligned); the
// barrier's current phase completes when they have all landed. The proxy fence orders
// the block's earlier reads of `dst` (ordinary loads) before the copy's writes.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes,
                                                    unsigned long long* barrier) {
  const unsigned bar = shared_address(barrier);
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
                   shared_address(dst)),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}

// Waits until the barrier's phase of the given parity (0, 1, 0, ... for its 1st, 2nd,
// 3rd ... phase) has completed.
__device__ __forceinline__ void wait_copy_barrier(unsigned long long* barrier, unsigned parity) {
  asm volatile(
      "{\n"
      " .reg .pred landed;\n"
      "wait_landed:\n"
      " mbarrier.try_wait.parity.shared::cta.b64 landed, [%0], %1;\n"
      " @!landed bra wait_landed;\n"
      "}\n" ::"r"(shared_address(barrier)),
      "r"(parity)
      : "memory");
}

#endif  // GPUFILTER_BULK_COPIES

}  // namespace gpufilter::kernels
