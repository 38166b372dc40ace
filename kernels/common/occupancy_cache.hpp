#pragma once
// Launch facts that do not change between calls, asked of the driver once per device:
// an op called in a loop should spend its host time launching, not re-asking the
// occupancy calculator (several microseconds a call) or re-setting attributes.
#include <cstddef>

namespace gpufilter::kernels {

// Streaming multiprocessors of the current device.
int cached_sm_count();

// The current device's compute capability major number (9 for sm_90), cached per device.
int cached_compute_major();

// Lets `kernel` launch with `shared_bytes` of dynamic shared memory on the current
// device (beside `static_bytes` of static shared memory). The per-function limit only
// ever grows, under a lock: a launch of any size allowed before stays allowed, so host
// threads launching the same kernel with different sizes never undo each other's opt-in.
void allow_dynamic_shared(const void* kernel, std::size_t shared_bytes, std::size_t static_bytes = 0);

// Resident blocks per SM of `kernel` (a __global__ function's address) with `threads`
// threads and `shared_bytes` of dynamic shared memory on the current device, at least 1.
// Where the dynamic and the kernel's `static_bytes` of static shared memory exceed
// 48 KiB, the dynamic size is opted in first (cudaFuncSetAttribute).
int cached_blocks_per_sm(const void* kernel, int threads, std::size_t shared_bytes, std::size_t static_bytes = 0);

// Asks for the largest shared-memory carveout for `kernel` (once per device): kernels
// that need several blocks' static shared memory per SM and stream their loads past L1.
void prefer_shared_carveout(const void* kernel);

}  // namespace gpufilter::kernels
