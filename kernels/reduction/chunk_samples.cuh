#pragma once
// The samples of one 16-byte chunk, in order, as values of type T: one helper for every
// kernel of the family that loads 16 bytes and then works sample by sample.
#include <cuda_runtime.h>

namespace gpufilter::kernels {

template <class T>
constexpr int kSamplesPerChunk = 16 / static_cast<int>(sizeof(T));

// f(j, sample) for j = 0 .. kSamplesPerChunk<T> - 1; j is a constant in each unrolled
// copy, so channel indices derived from it stay compile-time constants.
template <class T, class F>
__device__ __forceinline__ void for_each_chunk_sample(const int4& chunk, F&& f) {
  union {
    int4 v;
    T s[kSamplesPerChunk<T>];
  } u;
  u.v = chunk;
#pragma unroll
  for (int j = 0; j < kSamplesPerChunk<T>; ++j) f(j, u.s[j]);
}

}  // namespace gpufilter::kernels
