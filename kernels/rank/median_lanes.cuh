#pragma once
// How the median kernels split a pixel into the values their selection networks order
// (rank/median_select.hpp): MedianLanes<T, C> gives the values a pixel holds, the form a
// tile or a register keeps it in (Stored), how it is read, and how the medians go back
// into a pixel.
#include <cstdint>
#include <type_traits>

#include "common/pixel.cuh"
#include "rank/median_select.hpp"

namespace gpufilter::kernels {

// Every channel alone, as a 32-bit scalar.
template <class T, int C>
struct MedianLanes {
  using Value = std::conditional_t<std::is_same_v<T, float>, float, unsigned>;
  using Ops = ScalarOps;
  using Stored = Pixel<T, C>;  // a tile element
  static constexpr int kValues = C;

  __device__ static Stored stored(const Pixel<T, C>& p) { return p; }
  // The pixel at `pixel` (global memory), read as one access.
  __device__ static Stored load(const Pixel<T, C>* pixel) { return *pixel; }
  // `s` lies in shared memory, so a runtime `v` indexes it there.
  __device__ static Value value(const Stored& s, int v) { return s.c[v]; }
  // Writes all values of the pixel at `pixel` (global memory), as one access.
  __device__ static void store(Pixel<T, C>* pixel, const Value (&values)[kValues]) {
    Pixel<T, C> p;
#pragma unroll
    for (int v = 0; v < kValues; ++v) p.c[v] = static_cast<T>(values[v]);
    *pixel = p;
  }
  // Writes value v alone into the pixel at `pixel` (global memory).
  __device__ static void store_value(Pixel<T, C>* pixel, int v, Value value) {
    reinterpret_cast<T*>(pixel)[v] = static_cast<T>(value);
  }
};

// RGBA as two words of two 16-bit lanes each, so the networks order two channels at once.
struct PairedLanes {
  using Value = unsigned;
  using Ops = PairOps;
  struct alignas(8) Stored {
    unsigned w[2];
  };
  static constexpr int kValues = 2;
  __device__ static Value value(const Stored& s, int v) { return s.w[v]; }
};

// RGBA8: channels (0, 1) and (2, 3) widened to 16-bit lanes of two words as the tile is
// filled (two byte permutes a pixel, once).
template <>
struct MedianLanes<std::uint8_t, 4> : PairedLanes {
  __device__ static Stored widened(unsigned word) {
    return Stored{{__byte_perm(word, 0u, 0x4140u), __byte_perm(word, 0u, 0x4342u)}};
  }
  __device__ static Stored stored(const Pixel<std::uint8_t, 4>& p) {
    return widened(reinterpret_cast<const unsigned&>(p));
  }
  // Read as a word: a pixel loaded by bytes would be put back together byte by byte.
  __device__ static Stored load(const Pixel<std::uint8_t, 4>* pixel) {
    return widened(*reinterpret_cast<const unsigned*>(pixel));
  }
  // The pixel as a word again, from its (R, G) and (B, A) lanes.
  __device__ static unsigned narrowed(unsigned rg, unsigned ba) { return __byte_perm(rg, ba, 0x6420u); }
  __device__ static void store(Pixel<std::uint8_t, 4>* pixel, const Value (&values)[kValues]) {
    *reinterpret_cast<unsigned*>(pixel) = narrowed(values[0], values[1]);
  }
  __device__ static void store_value(Pixel<std::uint8_t, 4>* pixel, int v, Value value) {
    reinterpret_cast<std::uint16_t*>(pixel)[v] = static_cast<std::uint16_t>(__byte_perm(value, 0u, 0x0020u));
  }
};

// RGBA16: the pixel's two words already hold two 16-bit lanes each.
template <>
struct MedianLanes<std::uint16_t, 4> : PairedLanes {
  __device__ static Stored stored(const Pixel<std::uint16_t, 4>& p) {
    const uint2 words = reinterpret_cast<const uint2&>(p);
    return Stored{{words.x, words.y}};
  }
  __device__ static Stored load(const Pixel<std::uint16_t, 4>* pixel) {
    const uint2 words = *reinterpret_cast<const uint2*>(pixel);
    return Stored{{words.x, words.y}};
  }
  __device__ static void store(Pixel<std::uint16_t, 4>* pixel, const Value (&values)[kValues]) {
    *reinterpret_cast<uint2*>(pixel) = make_uint2(values[0], values[1]);
  }
  __device__ static void store_value(Pixel<std::uint16_t, 4>* pixel, int v, Value value) {
    reinterpret_cast<unsigned*>(pixel)[v] = value;
  }
};

}  // namespace gpufilter::kernels
