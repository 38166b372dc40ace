#include <cstdint>
#include <type_traits>

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "conversion/conversion_launch.hpp"
#include "conversion/pixel_map.cuh"
#include "conversion/pixel_map_visit.cuh"

namespace gpufilter::kernels {
namespace {

// A warp across 32 pixels of a row, 8 rows per block. kUnroll: pixels per thread in the
// unrolled variant, enough loads in flight per SM that narrow pixels (3 bytes) still
// cover DRAM latency (the seed's unrolling, 000).
constexpr int kBlockX = 32, kBlockY = 8, kUnroll = 4;

// kUnroll pixels per thread, blockDim.x apart (a warp's accesses stay contiguous), all
// loaded before any is stored so kUnroll loads are in flight; rows beyond the grid's y
// limit are walked with a stride. load(x, y) returns a pixel, store(x, y, pixel) writes
// one: the three unrolled kernels below differ only in those.
template <int kUnroll, class Load, class Store>
__device__ __forceinline__ void walk_unrolled(int width, int height, Load load, Store store) {
  const int x0 = static_cast<int>(blockIdx.x * blockDim.x * kUnroll + threadIdx.x);
  if (x0 >= width) return;
  for (long long y = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; y < height;
       y += static_cast<long long>(gridDim.y) * blockDim.y) {
    decltype(load(0, 0LL)) in[kUnroll];
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const int x = x0 + k * static_cast<int>(blockDim.x);
      if (x < width) in[k] = load(x, y);
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      const int x = x0 + k * static_cast<int>(blockDim.x);
      if (x < width) store(x, y, in[k]);
    }
  }
}

template <int kUnroll, class Tin, int Cin, class Tout, int Cout, PixelMap kMap>
__global__ void convert_pixels_kernel(PitchedView<Tin, Cin> src, PitchedView<Tout, Cout> dst, PixelMapping m) {
  walk_unrolled<kUnroll>(
      src.width, src.height, [&](int x, long long y) { return src.at(x, static_cast<int>(y)); },
      [&](int x, long long y, const Pixel<Tin, Cin>& p) {
        dst.at(x, static_cast<int>(y)) = map_pixel<Tin, Cin, Tout, Cout, kMap>(p, m);
      });
}

template <class T, int C>
struct Planes {
  unsigned char* plane[4];
  std::size_t pitch;
  __device__ __forceinline__ T& at(int c, int x, long long y) const {
    return reinterpret_cast<T*>(plane[c] + static_cast<std::size_t>(y) * pitch)[x];
  }
};

template <int kUnroll, class T, int C>
__global__ void to_planar_kernel(PitchedView<T, C> src, Planes<T, C> dst) {
  walk_unrolled<kUnroll>(
      src.width, src.height, [&](int x, long long y) { return src.at(x, static_cast<int>(y)); },
      [&](int x, long long y, const Pixel<T, C>& p) {
#pragma unroll
        for (int c = 0; c < C; ++c) dst.at(c, x, y) = p.c[c];
      });
}

template <int kUnroll, class T, int C>
__global__ void to_interleaved_kernel(Planes<T, C> src, PitchedView<T, C> dst) {
  walk_unrolled<kUnroll>(
      dst.width, dst.height,
      [&](int x, long long y) {
        Pixel<T, C> p;
#pragma unroll
        for (int c = 0; c < C; ++c) p.c[c] = src.at(c, x, y);
        return p;
      },
      [&](int x, long long y, const Pixel<T, C>& p) { dst.at(x, static_cast<int>(y)) = p; });
}

dim3 pixel_grid(int width, int height, int unroll, const char* kernel) {
  return dim3(grid_x(blocks_for(width, kBlockX * unroll), kernel), grid_y(blocks_for(height, kBlockY)));
}

template <class Tin, int Cin, class Tout, int Cout, PixelMap kMap>
void run(const ImageView& src, const ImageView& dst, const PixelMapping& m, PixelKernel kernel,
         const ExecContext& ctx) {
  const int unroll = kernel == PixelKernel::Pixel ? 1 : kUnroll;
  const dim3 grid = pixel_grid(src.width, src.height, unroll, "convert_pixels_kernel");
  if (unroll == 1)
    convert_pixels_kernel<1, Tin, Cin, Tout, Cout, kMap>
        <<<grid, dim3(kBlockX, kBlockY), 0, ctx.stream>>>(pitched<Tin, Cin>(src), pitched<Tout, Cout>(dst), m);
  else
    convert_pixels_kernel<kUnroll, Tin, Cin, Tout, Cout, kMap>
        <<<grid, dim3(kBlockX, kBlockY), 0, ctx.stream>>>(pitched<Tin, Cin>(src), pitched<Tout, Cout>(dst), m);
}

}  // namespace

PixelMapping with_selectors(PixelMapping m, PixelFormat src_format) {
  // Byte-permute selectors for swaps of integer pixels: u8 output byte i is input byte
  // from[i]; u16 output channel i is input bytes 2*from[i] and 2*from[i] + 1.
  const int bytes = static_cast<int>(src_format.channel_bytes());
  m.selector[0] = m.selector[1] = 0;
  for (int i = 0; i < 4; ++i) {
    const unsigned from = static_cast<unsigned>(m.from[i]);
    if (bytes == 1) {
      m.selector[0] |= from << (4 * i);
    } else {
      const unsigned pair = (2 * from) | (2 * from + 1) << 4;
      m.selector[i / 2] |= pair << (8 * (i % 2));
    }
  }
  return m;
}

void launch_convert_pixels(const ImageView& src, const ImageView& dst, const PixelMapping& mapping,
                           PixelKernel requested, const ExecContext& ctx) {
  PixelKernel kernel = requested;
  const PixelMapping m = with_selectors(mapping, src.format);
  if (kernel == PixelKernel::Vec16Warp) {
    if (launch_convert_vec16(src, dst, m, ctx)) return;
    kernel = PixelKernel::Unroll4;  // any offset, any type
  }
  visit_pixel_map(src, dst, m.map, [&](auto tin, auto cin, auto tout, auto cout, auto map) {
    run<typename decltype(tin)::type, decltype(cin)::value, typename decltype(tout)::type, decltype(cout)::value,
        decltype(map)::value>(src, dst, m, kernel, ctx);
  });
  check_launch("convert_pixels_kernel", ctx);
}

void launch_to_planar(const ImageView& src, const PlaneSet& dst, int unroll, const ExecContext& ctx) {
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    Planes<T, C> planes{{}, dst.pitch};
    for (int c = 0; c < 4; ++c) planes.plane[c] = static_cast<unsigned char*>(dst.planes[c]);
    const dim3 grid = pixel_grid(src.width, src.height, unroll, "to_planar_kernel");
    if (unroll == 1)
      to_planar_kernel<1, T, C><<<grid, dim3(kBlockX, kBlockY), 0, ctx.stream>>>(pitched<T, C>(src), planes);
    else
      to_planar_kernel<kUnroll, T, C><<<grid, dim3(kBlockX, kBlockY), 0, ctx.stream>>>(pitched<T, C>(src), planes);
  });
  check_launch("to_planar_kernel", ctx);
}

void launch_to_interleaved(const PlaneSet& src, const ImageView& dst, int unroll, const ExecContext& ctx) {
  visit_format(dst.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    Planes<T, C> planes{{}, src.pitch};
    for (int c = 0; c < 4; ++c) planes.plane[c] = static_cast<unsigned char*>(src.planes[c]);
    const dim3 grid = pixel_grid(dst.width, dst.height, unroll, "to_interleaved_kernel");
    if (unroll == 1)
      to_interleaved_kernel<1, T, C><<<grid, dim3(kBlockX, kBlockY), 0, ctx.stream>>>(planes, pitched<T, C>(dst));
    else
      to_interleaved_kernel<kUnroll, T, C><<<grid, dim3(kBlockX, kBlockY), 0, ctx.stream>>>(planes, pitched<T, C>(dst));
  });
  check_launch("to_interleaved_kernel", ctx);
}

}  // namespace gpufilter::kernels
