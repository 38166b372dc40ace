#pragma once
// Device-side pixels: a pixel is C channels of T, read and written whole (one
// 4/8/16-byte access for 4-channel pixels), accumulated as C floats.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpufilter::kernels {

template <class T, int C>
struct alignas(C == 4 ? 4 * sizeof(T) : sizeof(T)) Pixel {
  T c[C];
};

// Four floats move as one 16-byte shared or global access.
template <int C>
struct alignas(C == 4 ? 16 : 4) Accum {
  float c[C];
};

// A pitched device image seen as pixels of C channels of T.
template <class T, int C>
struct PitchedView {
  unsigned char* data;
  int width;
  int height;
  std::size_t pitch;

  __device__ __forceinline__ const Pixel<T, C>& at(int x, int y) const {
    return reinterpret_cast<const Pixel<T, C>*>(data + static_cast<std::size_t>(y) * pitch)[x];
  }
  __device__ __forceinline__ Pixel<T, C>& at(int x, int y) {
    return reinterpret_cast<Pixel<T, C>*>(data + static_cast<std::size_t>(y) * pitch)[x];
  }
};

// 8-bit values convert to and from float through the 2^23 "magic number": for
// 0 <= v < 2^23 the float 2^23 + v holds v in its low mantissa bits, so a conversion
// is a bit operation (one byte permute for an RGBA8 pixel's channel) and an add, at
// full rate. 16-bit values use the hardware's conversions, which measured faster for
// them (docs/techniques/convolution.md, "The variants").
constexpr float kMagic = 8388608.0f;  // 2^23
constexpr unsigned kMagicBits = 0x4B000000u;

__device__ __forceinline__ float to_float(std::uint8_t v) { return __uint_as_float(kMagicBits | v) - kMagic; }
__device__ __forceinline__ float to_float(std::uint16_t v) { return static_cast<float>(v); }
__device__ __forceinline__ float to_float(float v) { return v; }

// Clamp (unless the caller knows the value is in range), then round to the nearest
// integer, ties to even (as lrint).
template <class T, bool kClamp>
__device__ __forceinline__ T from_float(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else if constexpr (std::is_same_v<T, std::uint8_t>) {
    if constexpr (kClamp) v = fminf(fmaxf(v, 0.0f), 255.0f);
    return static_cast<std::uint8_t>(__float_as_uint(v + kMagic));  // the add rounds; keep the low byte
  } else {
    if constexpr (kClamp) v = fminf(fmaxf(v, 0.0f), 65535.0f);
    return static_cast<std::uint16_t>(__float2uint_rn(v));
  }
}

// kClamp = false is for sums that cannot leave the channel's range: convex
// combinations (non-negative weights summing to 1) of in-range values, such as a
// Gaussian blur. It saves two instructions per channel.
template <class T, int C, bool kClamp = true>
__device__ __forceinline__ Pixel<T, C> to_pixel(const Accum<C>& a) {
  Pixel<T, C> p;
#pragma unroll
  for (int i = 0; i < C; ++i) p.c[i] = from_float<T, kClamp>(a.c[i]);
  return p;
}

template <class T, int C>
__device__ __forceinline__ Accum<C> to_accum(const Pixel<T, C>& p) {
  Accum<C> a;
#pragma unroll
  for (int i = 0; i < C; ++i) a.c[i] = to_float(p.c[i]);
  return a;
}

// The four bytes of a 32-bit word as floats: one byte permute per byte places it under
// the magic exponent (0x4B0000bb), and an add takes the exponent off.
__device__ __forceinline__ Accum<4> word_bytes(unsigned word) {
  Accum<4> a;
#pragma unroll
  for (int i = 0; i < 4; ++i) a.c[i] = __uint_as_float(__byte_perm(word, kMagicBits, 0x7540u + i)) - kMagic;
  return a;
}

// An RGBA8 pixel is one 32-bit word.
template <>
__device__ __forceinline__ Accum<4> to_accum<std::uint8_t, 4>(const Pixel<std::uint8_t, 4>& p) {
  return word_bytes(reinterpret_cast<const unsigned&>(p));
}

template <int C>
__device__ __forceinline__ Accum<C> zero_accum() {
  Accum<C> a;
#pragma unroll
  for (int i = 0; i < C; ++i) a.c[i] = 0.0f;
  return a;
}

// a += w * p
template <class T, int C>
__device__ __forceinline__ void accumulate(Accum<C>& a, float w, const Pixel<T, C>& p) {
  const Accum<C> v = to_accum(p);
#pragma unroll
  for (int i = 0; i < C; ++i) a.c[i] = fmaf(w, v.c[i], a.c[i]);
}

template <int C>
__device__ __forceinline__ void accumulate(Accum<C>& a, float w, const Accum<C>& p) {
#pragma unroll
  for (int i = 0; i < C; ++i) a.c[i] = fmaf(w, p.c[i], a.c[i]);
}

}  // namespace gpufilter::kernels
