#pragma once
// Border policies: each maps a coordinate outside [0, n) to the one it reads, in
// closed form (no loops), so a kernel body holds no border logic of its own.
#include <cuda_runtime.h>

#include "gpufilter/border.hpp"
#include "common/pixel.cuh"

namespace gpufilter::kernels {

// i mod n in [0, n) for any sign of i.
__device__ __forceinline__ int positive_mod(int i, int n) {
  const int m = i % n;
  return m < 0 ? m + n : m;
}

struct BorderConstant {
  static constexpr bool kConstant = true;
  __device__ __forceinline__ static int map(int i, int) { return i; }
};
struct BorderReplicate {
  static constexpr bool kConstant = false;
  __device__ __forceinline__ static int map(int i, int n) { return min(max(i, 0), n - 1); }
};
struct BorderReflect {  // period 2n: 0..n-1 then n-1..0
  static constexpr bool kConstant = false;
  __device__ __forceinline__ static int map(int i, int n) {
    const int m = positive_mod(i, 2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
};
struct BorderReflect101 {  // period 2n-2: 0..n-1 then n-2..1
  static constexpr bool kConstant = false;
  __device__ __forceinline__ static int map(int i, int n) {
    if (n == 1) return 0;
    const int m = positive_mod(i, 2 * n - 2);
    return m < n ? m : 2 * n - 2 - m;
  }
};
struct BorderWrap {
  static constexpr bool kConstant = false;
  __device__ __forceinline__ static int map(int i, int n) { return positive_mod(i, n); }
};

template <class T, int C>
struct ConstantPixel {
  Pixel<T, C> value;
};

// Reads (x, y) of `view`, which may lie outside it, under policy B.
template <class B, class T, int C>
__device__ __forceinline__ Pixel<T, C> load_bordered(const PitchedView<T, C>& view, int x, int y,
                                                     const Pixel<T, C>& constant) {
  if (x >= 0 && x < view.width && y >= 0 && y < view.height) return view.at(x, y);
  if constexpr (B::kConstant) {
    return constant;
  } else {
    return view.at(B::map(x, view.width), B::map(y, view.height));
  }
}

// Calls f(Policy{}) with the policy type for a runtime mode.
template <class F>
decltype(auto) visit_border(BorderMode mode, F&& f) {
  switch (mode) {
    case BorderMode::Constant: return f(BorderConstant{});
    case BorderMode::Replicate: return f(BorderReplicate{});
    case BorderMode::Reflect: return f(BorderReflect{});
    case BorderMode::Reflect101: return f(BorderReflect101{});
    case BorderMode::Wrap: break;
  }
  return f(BorderWrap{});
}

}  // namespace gpufilter::kernels
