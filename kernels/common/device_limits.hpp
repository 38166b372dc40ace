#pragma once
// Limits of the current device that decide which kernels can run on it.
#include <cstddef>

namespace gpufilter::kernels {

// Shared memory one block may use on the current device (the opt-in maximum:
// 227 KiB on sm_90, 163 KiB on sm_80, 99 KiB on sm_86/sm_89, 64 KiB on sm_75).
// GPUFILTER_SHARED_MEMORY_LIMIT=<bytes> lowers it, so tests can see on a large GPU
// what a smaller one would do.
std::size_t max_shared_memory_per_block();

}  // namespace gpufilter::kernels
