#pragma once
// Bytes held in 32-bit registers: a 16-byte global access lands in four words, and a
// kernel takes bytes out of them and puts bytes into others by constant positions
// (every index is a compile-time constant after unrolling, so nothing goes to local
// memory and the compiler turns the shifts into byte permutes). The narrow-pixel
// kernels (1- and 3-byte pixels) use this to make every global access 16 bytes wide.
#include <cuda_runtime.h>

namespace gpufilter::kernels {

template <int kWords>
struct ByteWords {
  unsigned w[kWords];

  __device__ __forceinline__ unsigned byte(int i) const { return (w[i / 4] >> (8 * (i % 4))) & 0xFFu; }
  // The word must hold zero in that byte (words start cleared).
  __device__ __forceinline__ void put(int i, unsigned value) { w[i / 4] |= (value & 0xFFu) << (8 * (i % 4)); }
  __device__ __forceinline__ void clear() {
#pragma unroll
    for (int k = 0; k < kWords; ++k) w[k] = 0;
  }
  // Chunk k (16 bytes) from or to a 16-byte aligned address.
  __device__ __forceinline__ void load16(int k, const unsigned char* p) {
    const uint4 v = *reinterpret_cast<const uint4*>(p);
    w[4 * k] = v.x, w[4 * k + 1] = v.y, w[4 * k + 2] = v.z, w[4 * k + 3] = v.w;
  }
  __device__ __forceinline__ void store16(int k, unsigned char* p) const {
    *reinterpret_cast<uint4*>(p) = make_uint4(w[4 * k], w[4 * k + 1], w[4 * k + 2], w[4 * k + 3]);
  }
};

}  // namespace gpufilter::kernels
