#pragma once
// Helpers for plain C++ that runs both in kernels and in the CPU tests: functions the
// CUDA compiler makes callable on both sides (plain inline elsewhere), and an unroll
// hint that only device code takes.
#if defined(__CUDACC__)
#define GPUFILTER_HD __host__ __device__ __forceinline__
#else
#define GPUFILTER_HD inline
#endif
#if defined(__CUDA_ARCH__)
#define GPUFILTER_UNROLL _Pragma("unroll")
#else
#define GPUFILTER_UNROLL
#endif
