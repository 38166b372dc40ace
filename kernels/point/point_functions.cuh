#pragma once
// The per-sample functions of the point ops, one functor per PointMath, applied by the
// generic kernels in point_kernels.cu.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "common/pixel.cuh"
#include "point/point_launch.hpp"

namespace gpufilter::kernels {

// The top of a channel's range: 255, 65535, or 1 for float images.
template <class T>
__device__ __forceinline__ constexpr float range_max() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return 255.0f;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return 65535.0f;
  else return 1.0f;
}

// Saturate to the range, and round to the nearest level (ties to even) for integers.
template <class T>
__device__ __forceinline__ T saturate(float v) {
  if constexpr (std::is_same_v<T, float>) return fminf(fmaxf(v, 0.0f), 1.0f);
  else return from_float<T, true>(v);
}

template <class T, PointMath kMath>
struct SampleFunction {
  // The scalar fields of PointFunction by value; the table, where used, in shared memory.
  float offset, lo, hi, from, scale, to, exponent;
  const unsigned char* table;

  __device__ __forceinline__ SampleFunction(const PointFunction& f, const unsigned char* shared_table)
      : offset(f.offset), lo(f.lo), hi(f.hi), from(f.from), scale(f.scale), to(f.to), exponent(f.exponent),
        table(shared_table) {}

  __device__ __forceinline__ T operator()(T x) const {
    if constexpr (kMath == PointMath::Invert) {
      if constexpr (std::is_same_v<T, float>) return saturate<float>(1.0f - x);
      else return static_cast<T>(static_cast<int>(range_max<T>()) - static_cast<int>(x));
    } else if constexpr (kMath == PointMath::Add) {
      if constexpr (std::is_same_v<T, float>) {
        return saturate<float>(x + offset);
      } else {
        // Whole-level offsets: the sum is an exact integer, clamped.
        const int y = static_cast<int>(x) + static_cast<int>(offset);
        return static_cast<T>(min(max(y, 0), static_cast<int>(range_max<T>())));
      }
    } else if constexpr (kMath == PointMath::Linear) {
      const float v = fminf(fmaxf(to_float(x), lo), hi);
      return saturate<T>(fmaf(v - from, scale, to));
    } else if constexpr (kMath == PointMath::Gamma) {
      const float v = fmaxf(to_float(x), 0.0f) * (1.0f / range_max<T>());
      return saturate<T>(range_max<T>() * powf(v, exponent));
    } else {
      static_assert(std::is_same_v<T, std::uint8_t>, "tables are for u8 samples");
      return table[x];
    }
  }
};

}  // namespace gpufilter::kernels
