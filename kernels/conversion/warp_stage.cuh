#pragma once
// A warp's 32 groups of G 16-byte chunks moved between global and shared memory so
// that every global instruction of the warp covers 512 contiguous bytes. A lane that
// owns G consecutive chunks (48 bytes = 16 pixels of 3 bytes, 64 bytes = 16 of 4) and
// read them itself would make each of its G instructions touch 32 sectors half used
// (stride G * 16 bytes); through the stage, global accesses are chunk lane + 32 i and
// the regrouping happens in shared memory with 16-byte accesses. For even G the slots
// are swizzled (the low three bits of a chunk's index XOR the next three) so that a
// quarter warp reading chunks G apart hits eight different 16-byte bank groups.
#include <cuda_runtime.h>

#include "conversion/byte_words.cuh"

namespace gpufilter::kernels {

template <int G>
struct WarpStage {
  uint4* chunks;  // 32 * G chunks of shared memory owned by one warp

  __device__ __forceinline__ static int slot(int i) { return (G % 2 == 0) ? (i ^ ((i >> 3) & 7)) : i; }

  // Every lane of a converged warp: reads the 32 * G chunks at `base` (16-byte aligned)
  // and returns the chunks of group `group` (0..31) in `out`.
  __device__ __forceinline__ void load(const unsigned char* base, int lane, int group, ByteWords<4 * G>& out) const {
    uint4 v[G];
#pragma unroll
    for (int i = 0; i < G; ++i) v[i] = reinterpret_cast<const uint4*>(base)[lane + 32 * i];
    __syncwarp();  // the previous use of the stage is over
#pragma unroll
    for (int i = 0; i < G; ++i) chunks[slot(lane + 32 * i)] = v[i];
    __syncwarp();
#pragma unroll
    for (int k = 0; k < G; ++k) {
      const uint4 c = chunks[slot(G * group + k)];
      out.w[4 * k] = c.x, out.w[4 * k + 1] = c.y, out.w[4 * k + 2] = c.z, out.w[4 * k + 3] = c.w;
    }
  }

  // The reverse: group `group` of every lane gathered, then written as 32 * G
  // contiguous chunks at `base`.
  __device__ __forceinline__ void store(unsigned char* base, int lane, int group, const ByteWords<4 * G>& in) const {
    __syncwarp();
#pragma unroll
    for (int k = 0; k < G; ++k)
      chunks[slot(G * group + k)] = make_uint4(in.w[4 * k], in.w[4 * k + 1], in.w[4 * k + 2], in.w[4 * k + 3]);
    __syncwarp();
#pragma unroll
    for (int i = 0; i < G; ++i) reinterpret_cast<uint4*>(base)[lane + 32 * i] = chunks[slot(lane + 32 * i)];
  }
};

}  // namespace gpufilter::kernels
