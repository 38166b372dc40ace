#pragma once
// The square root of the gradient magnitudes (edge's Magnitude output) in one MUFU op:
// sqrt.approx's relative error, near 2^-23, moves an 8- or 16-bit output's rounding only
// where the magnitude lies within about 1e-4 of a .5 boundary, and stays far inside the
// float outputs' tolerance; the IEEE sqrtf costs a refinement and a range test besides.
#include <cuda_runtime.h>

namespace gpufilter::kernels {

__device__ __forceinline__ float sqrt_approx(float v) {
  float r;
  asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}

}  // namespace gpufilter::kernels
