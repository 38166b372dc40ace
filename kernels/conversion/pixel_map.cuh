#pragma once
// One pixel mapped to another (the conversions' arithmetic), shared by every kernel of
// the family so that all variants compute the same values.
#include <cstdint>
#include <type_traits>

#include "common/pixel.cuh"
#include "conversion/conversion_launch.hpp"

namespace gpufilter::kernels {

template <class T>
__device__ __forceinline__ constexpr float top() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return 255.0f;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return 65535.0f;
  else return 1.0f;
}

// One sample to another channel type: the correctly rounded value of x * M_out / M_in.
template <class Out, class In>
__device__ __forceinline__ Out convert_sample(In x) {
  if constexpr (std::is_same_v<In, Out>) {
    return x;
  } else if constexpr (std::is_same_v<In, std::uint8_t> && std::is_same_v<Out, std::uint16_t>) {
    return static_cast<Out>(x * 257u);
  } else if constexpr (std::is_same_v<In, std::uint16_t> && std::is_same_v<Out, std::uint8_t>) {
    return static_cast<Out>((x + 128u) / 257u);  // round(x / 257): x/257 is never a tie
  } else if constexpr (std::is_same_v<Out, float>) {
    // Double division rounded once to float: what the reference computes.
    return __double2float_rn(static_cast<double>(x) / static_cast<double>(top<In>()));
  } else {
    // f32 to an integer: x * M is exact in double; round half to even.
    const double v = fmin(fmax(static_cast<double>(x), 0.0), 1.0) * static_cast<double>(top<Out>());
    return static_cast<Out>(__double2uint_rn(v));
  }
}

template <class Tin, int Cin, class Tout, int Cout, PixelMap kMap>
__device__ __forceinline__ Pixel<Tout, Cout> map_pixel(const Pixel<Tin, Cin>& in, const PixelMapping& m) {
  Pixel<Tout, Cout> out;
  if constexpr (kMap == PixelMap::Gray) {
    const float y = fmaf(m.weights[2], to_float(in.c[2]), fmaf(m.weights[1], to_float(in.c[1]),
                                                                   m.weights[0] * to_float(in.c[0])));
    if constexpr (std::is_same_v<Tout, float>) out.c[0] = y;
    else out.c[0] = from_float<Tout, true>(y);
  } else if constexpr (kMap == PixelMap::AddAlpha) {
#pragma unroll
    for (int c = 0; c < 3; ++c) out.c[c] = in.c[c];
    out.c[3] = static_cast<Tout>(top<Tout>());
  } else if constexpr (kMap == PixelMap::DropAlpha) {
#pragma unroll
    for (int c = 0; c < 3; ++c) out.c[c] = in.c[c];
  } else if constexpr (kMap == PixelMap::Swap && std::is_same_v<Tin, std::uint8_t>) {
    // The pixel's bytes in one word, reordered by one byte permute (selector: from[i]
    // in nibble i): an index into the pixel would put it in local memory.
    unsigned word = 0;
#pragma unroll
    for (int c = 0; c < Cin; ++c) word |= static_cast<unsigned>(in.c[c]) << (8 * c);
    const unsigned swapped = __byte_perm(word, 0u, m.selector[0]);
#pragma unroll
    for (int c = 0; c < Cout; ++c) out.c[c] = static_cast<Tout>((swapped >> (8 * c)) & 0xFFu);
  } else if constexpr (kMap == PixelMap::Swap && std::is_same_v<Tin, std::uint16_t>) {
    // Eight bytes in two words; each output word is two channels, one permute each.
    const unsigned low = in.c[0] | static_cast<unsigned>(in.c[1]) << 16;
    unsigned high = in.c[2];
    if constexpr (Cin == 4) high |= static_cast<unsigned>(in.c[3]) << 16;
    const unsigned first = __byte_perm(low, high, m.selector[0]), second = __byte_perm(low, high, m.selector[1]);
    out.c[0] = static_cast<Tout>(first & 0xFFFFu);
    out.c[1] = static_cast<Tout>(first >> 16);
    out.c[2] = static_cast<Tout>(second & 0xFFFFu);
    if constexpr (Cout == 4) out.c[3] = static_cast<Tout>(second >> 16);
  } else if constexpr (kMap == PixelMap::Swap) {
#pragma unroll
    for (int c = 0; c < Cout; ++c) {
      // A select chain (the compiler may still index a stack copy of the pixel).
      Tin v = in.c[0];
#pragma unroll
      for (int k = 1; k < Cin; ++k) v = m.from[c] == k ? in.c[k] : v;
      out.c[c] = v;
    }
  } else {
#pragma unroll
    for (int c = 0; c < Cout; ++c) out.c[c] = convert_sample<Tout>(in.c[c]);
  }
  return out;
}

}  // namespace gpufilter::kernels
