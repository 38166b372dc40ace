#pragma once
// Tensor-core products and their operand loads, as the PTX names them, for sm_80 on:
// half-precision products with float sums (mma.sync m16n8k16, ldmatrix; the lab's
// separable_mma) and 8-bit integer products with 32-bit sums (m16n8k32; the strip's
// vertical pass, separable_strip_imma.cuh). Callers compile their use of them only where
// __CUDA_ARCH__ >= 800.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace gpufilter::kernels::tc {

// A shared-memory pointer as the 32-bit address ldmatrix takes.
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Two halves in one register, `lo` in the low 16 bits (the lower index of a pair).
__device__ __forceinline__ unsigned pack_halves(__half lo, __half hi) {
  return static_cast<unsigned>(__half_as_ushort(lo)) | (static_cast<unsigned>(__half_as_ushort(hi)) << 16);
}

// d += a * b: a 16x16 row-major fragment (4 registers), b 16x8 column-major (2), d 16x8 floats.
__device__ __forceinline__ void mma_16x8x16(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// d += a * b: a 16x32 row-major fragment of bytes (4 registers), b 32x8 column-major (2),
// d 16x8 32-bit sums; unsigned bytes both.
__device__ __forceinline__ void mma_16x8x32_u8(int (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// Four 8x8 matrices of halves, each lane giving one row's address (lanes 8i to 8i + 7:
// matrix i's rows); thread t gets row t / 4, columns 2(t % 4) and 2(t % 4) + 1 of each.
__device__ __forceinline__ void load_matrices_x4(unsigned (&r)[4], unsigned address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
#endif
}

// The same, transposed: thread t gets column t / 4, rows 2(t % 4) and 2(t % 4) + 1.
__device__ __forceinline__ void load_matrices_x4_transposed(unsigned (&r)[4], unsigned address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
#endif
}

}  // namespace gpufilter::kernels::tc
