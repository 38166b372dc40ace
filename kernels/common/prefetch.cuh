#pragma once
// Asking L2 for data a thread will load later: the request holds no register and
// nothing waits on it, so a kernel whose registers cap its loads in flight can still
// have DRAM working ahead of it (separable_packed's rows, box_stack's walk).
namespace gpufilter::kernels {

// The L2 line holding p is fetched from DRAM if it is not there already. p must lie in
// an allocation (callers check their row against the image's height).
__device__ __forceinline__ void prefetch_l2(const void* p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

}  // namespace gpufilter::kernels
