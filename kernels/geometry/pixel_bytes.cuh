#pragma once
// A pixel seen as N bytes with alignment A: the geometry kernels move pixels without
// looking inside them, so one kernel serves every format of the same size (u8x4 and
// f32x1 are both 4 bytes aligned to 4). A pixel is a struct of A-byte units, so it is
// read and written in the widest access its alignment allows.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "gpufilter/error.hpp"
#include "gpufilter/pixel_format.hpp"

namespace gpufilter::kernels {

template <int A>
struct UnitOf;
template <>
struct UnitOf<1> {
  using type = std::uint8_t;
};
template <>
struct UnitOf<2> {
  using type = std::uint16_t;
};
template <>
struct UnitOf<4> {
  using type = std::uint32_t;
};
template <>
struct UnitOf<8> {
  using type = uint2;
};
template <>
struct UnitOf<16> {
  using type = uint4;
};

template <int N, int A>
struct alignas(A) PixelBytes {
  static_assert(N % A == 0, "a pixel is a whole number of units");
  typename UnitOf<A>::type unit[N / A];
};

// The largest power of two (up to 16) dividing n: the widest access a word of n bytes
// at an n-aligned offset allows.
constexpr int widest_unit(int n) { return (n % 16 == 0) ? 16 : (n % 8 == 0) ? 8 : (n % 4 == 0) ? 4 : (n % 2 == 0) ? 2 : 1; }

// P pixels of N bytes (alignment A) moved as P*N/G units of G bytes. The union lets a
// word loaded from global memory be taken apart into pixels in registers (every index
// is a compile-time constant after unrolling).
template <int N, int A, int P>
union PixelWord {
  static constexpr int kBytes = N * P;
  static constexpr int kUnitBytes = widest_unit(kBytes);
  static constexpr int kUnits = kBytes / kUnitBytes;
  using Unit = typename UnitOf<kUnitBytes>::type;
  Unit unit[kUnits];
  PixelBytes<N, A> pixel[P];
};

// The pixel's size and alignment as the library's checks guarantee them: 4-channel
// pixels are aligned to their size, others to their channel.
inline int pixel_alignment(PixelFormat format) {
  return static_cast<int>(format.channels == 4 ? format.pixel_bytes() : format.channel_bytes());
}

// Calls f(std::integral_constant<int, N>{}, std::integral_constant<int, A>{}) for the
// format's pixel size and alignment: eight kernels cover the nine formats.
template <class F>
decltype(auto) visit_pixel_layout(PixelFormat format, F&& f) {
  const int n = static_cast<int>(format.pixel_bytes());
  const int a = pixel_alignment(format);
  using std::integral_constant;
  if (n == 1 && a == 1) return f(integral_constant<int, 1>{}, integral_constant<int, 1>{});
  if (n == 2 && a == 2) return f(integral_constant<int, 2>{}, integral_constant<int, 2>{});
  if (n == 3 && a == 1) return f(integral_constant<int, 3>{}, integral_constant<int, 1>{});
  if (n == 4 && a == 4) return f(integral_constant<int, 4>{}, integral_constant<int, 4>{});
  if (n == 6 && a == 2) return f(integral_constant<int, 6>{}, integral_constant<int, 2>{});
  if (n == 8 && a == 8) return f(integral_constant<int, 8>{}, integral_constant<int, 8>{});
  if (n == 12 && a == 4) return f(integral_constant<int, 12>{}, integral_constant<int, 4>{});
  if (n == 16 && a == 16) return f(integral_constant<int, 16>{}, integral_constant<int, 16>{});
  throw Error(ErrorCode::UnsupportedFormat, "geometry: no kernel for " + format.name() + " pixels");
}

template <int N, int A>
__device__ __forceinline__ const PixelBytes<N, A>* pixel_row(const unsigned char* data, std::size_t pitch, long long y) {
  return reinterpret_cast<const PixelBytes<N, A>*>(data + static_cast<std::size_t>(y) * pitch);
}
template <int N, int A>
__device__ __forceinline__ PixelBytes<N, A>* pixel_row(unsigned char* data, std::size_t pitch, long long y) {
  return reinterpret_cast<PixelBytes<N, A>*>(data + static_cast<std::size_t>(y) * pitch);
}

}  // namespace gpufilter::kernels
