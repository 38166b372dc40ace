#include <cstdint>
#include <type_traits>

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "conversion/conversion_launch.hpp"
#include "conversion/pixel_map.cuh"

namespace gpufilter::kernels {
namespace {

// A warp across 32 pixels of a row, 8 rows per block. kUnroll: pixels per thread in the
// unrolled variant, enough loads in flight per SM that narrow pixels (3 bytes) still
// cover DRAM latency (the seed's unrolling, 000).
constexpr int kBlockX = 32, kBlockY = 8, kUnroll = 4;
// Staged variant: 256 threads move a 1024-pixel segment of a row (16 KiB in and out at
// most, for f32x4: 32 KiB of static shared memory, under every GPU's 48 KiB).
constexpr int kStagedThreads = 256, kStagedPixels = 1024;

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

// ---- staged: 16-byte global accesses through shared memory --------------------------

// Moves the n bytes at `global` into shared memory (kToShared) or back out, where the
// shared side keeps the global side's alignment: global byte o (from `global`) is shared
// byte lead + o, lead = the address mod 16. The 16-byte chunks inside the range move as
// one access each, the bytes before the first and after the last one by one; nothing
// outside the range is read or written.
template <bool kToShared>
__device__ __forceinline__ void move_segment(unsigned char* global, unsigned char* shared, std::size_t n) {
  const std::size_t lead = reinterpret_cast<std::uintptr_t>(global) & 15;
  const std::size_t first = (16 - lead) & 15;  // offset of the first 16-byte boundary
  const std::size_t chunks = n > first ? (n - first) / 16 : 0;
  const std::size_t head = chunks > 0 ? first : n;
  const std::size_t tail_start = chunks > 0 ? first + chunks * 16 : n;
  for (std::size_t k = threadIdx.x; k < chunks; k += blockDim.x) {
    const std::size_t o = first + k * 16;  // lead + o is a multiple of 16
    if constexpr (kToShared)
      *reinterpret_cast<uint4*>(shared + lead + o) = __ldg(reinterpret_cast<const uint4*>(global + o));
    else
      *reinterpret_cast<uint4*>(global + o) = *reinterpret_cast<const uint4*>(shared + lead + o);
  }
  const std::size_t bytes = head + (n - tail_start);
  for (std::size_t i = threadIdx.x; i < bytes; i += blockDim.x) {
    const std::size_t o = i < head ? i : tail_start + (i - head);
    if constexpr (kToShared)
      shared[lead + o] = global[o];
    else
      global[o] = shared[lead + o];
  }
}

// A block converts kStagedPixels pixels of one row (blockIdx.x: the segment; blockIdx.y:
// the row, looping beyond the grid's y limit): the input segment comes into shared
// memory in 16-byte pieces, each thread converts pixels there, and the output segment
// goes out in 16-byte pieces. Global accesses are whole chunks whatever the pixel size
// (3 bytes included) and whatever the rows' offsets in src and dst.
template <class Tin, int Cin, class Tout, int Cout, PixelMap kMap>
__global__ void __launch_bounds__(kStagedThreads)
    convert_staged_kernel(PitchedView<Tin, Cin> src, PitchedView<Tout, Cout> dst, PixelMapping m) {
  constexpr int kInBytes = static_cast<int>(sizeof(Tin)) * Cin, kOutBytes = static_cast<int>(sizeof(Tout)) * Cout;
  __shared__ __align__(16) unsigned char staged_in[kStagedPixels * kInBytes + 16];
  __shared__ __align__(16) unsigned char staged_out[kStagedPixels * kOutBytes + 16];
  const int x0 = blockIdx.x * kStagedPixels;
  const int count = min(kStagedPixels, src.width - x0);
  for (long long y = blockIdx.y; y < src.height; y += gridDim.y) {
    unsigned char* in = src.data + static_cast<std::size_t>(y) * src.pitch + static_cast<std::size_t>(x0) * kInBytes;
    unsigned char* out = dst.data + static_cast<std::size_t>(y) * dst.pitch + static_cast<std::size_t>(x0) * kOutBytes;
    move_segment<true>(in, staged_in, static_cast<std::size_t>(count) * kInBytes);
    __syncthreads();
    // Pixel i sits at the global side's offset within its 16-byte chunk, so a pixel in
    // shared memory is as aligned as in global memory.
    const int in_lead = static_cast<int>(reinterpret_cast<std::uintptr_t>(in) & 15);
    const int out_lead = static_cast<int>(reinterpret_cast<std::uintptr_t>(out) & 15);
    for (int i = threadIdx.x; i < count; i += blockDim.x) {
      const auto& p = *reinterpret_cast<const Pixel<Tin, Cin>*>(staged_in + in_lead + i * kInBytes);
      *reinterpret_cast<Pixel<Tout, Cout>*>(staged_out + out_lead + i * kOutBytes) =
          map_pixel<Tin, Cin, Tout, Cout, kMap>(p, m);
    }
    __syncthreads();
    move_segment<false>(out, staged_out, static_cast<std::size_t>(count) * kOutBytes);
    __syncthreads();  // the buffers are reused by the next row
  }
}

dim3 pixel_grid(int width, int height, int unroll, const char* kernel) {
  return dim3(grid_x(blocks_for(width, kBlockX * unroll), kernel), grid_y(blocks_for(height, kBlockY)));
}

template <class Tin, int Cin, class Tout, int Cout, PixelMap kMap>
void run(const ImageView& src, const ImageView& dst, const PixelMapping& m, PixelKernel kernel,
         const ExecContext& ctx) {
  if (kernel == PixelKernel::Staged) {
    const dim3 grid(grid_x(blocks_for(src.width, kStagedPixels), "convert_staged_kernel"), grid_y(src.height));
    convert_staged_kernel<Tin, Cin, Tout, Cout, kMap>
        <<<grid, kStagedThreads, 0, ctx.stream>>>(pitched<Tin, Cin>(src), pitched<Tout, Cout>(dst), m);
    return;
  }
  const int unroll = kernel == PixelKernel::Pixel ? 1 : kUnroll;
  const dim3 grid = pixel_grid(src.width, src.height, unroll, "convert_pixels_kernel");
  if (unroll == 1)
    convert_pixels_kernel<1, Tin, Cin, Tout, Cout, kMap>
        <<<grid, dim3(kBlockX, kBlockY), 0, ctx.stream>>>(pitched<Tin, Cin>(src), pitched<Tout, Cout>(dst), m);
  else
    convert_pixels_kernel<kUnroll, Tin, Cin, Tout, Cout, kMap>
        <<<grid, dim3(kBlockX, kBlockY), 0, ctx.stream>>>(pitched<Tin, Cin>(src), pitched<Tout, Cout>(dst), m);
}

[[noreturn]] void unsupported(const ImageView& src, const ImageView& dst) {
  throw Error(ErrorCode::UnsupportedFormat,
              "conversion: no kernel from " + src.format.name() + " to " + dst.format.name());
}

template <class T>
void visit_type(ChannelType type, T&& f) {
  switch (type) {
    case ChannelType::U8: return f(TypeTag<std::uint8_t>{});
    case ChannelType::U16: return f(TypeTag<std::uint16_t>{});
    case ChannelType::F32: return f(TypeTag<float>{});
  }
}

}  // namespace

void launch_convert_pixels(const ImageView& src, const ImageView& dst, const PixelMapping& mapping,
                           PixelKernel requested, const ExecContext& ctx) {
  PixelKernel kernel = requested;
  // Byte-permute selectors for swaps of integer pixels: u8 output byte i is input byte
  // from[i]; u16 output channel i is input bytes 2*from[i] and 2*from[i] + 1.
  PixelMapping m = mapping;
  const int bytes = static_cast<int>(src.format.channel_bytes());
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
  if (kernel == PixelKernel::Vec16 || kernel == PixelKernel::Vec16Warp) {
    if (launch_convert_vec16(src, dst, m, kernel == PixelKernel::Vec16Warp, ctx)) return;
    kernel = PixelKernel::Unroll4;  // any offset, any type
  }
  const int cin = src.format.channels, cout = dst.format.channels;
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    switch (m.map) {
      case PixelMap::Gray:
        if constexpr (C >= 3) {
          if (cout == 1 && dst.format.type == src.format.type)
            return run<T, C, T, 1, PixelMap::Gray>(src, dst, m, kernel, ctx);
        }
        break;
      case PixelMap::AddAlpha:
        if constexpr (C == 3) {
          if (cout == 4 && dst.format.type == src.format.type)
            return run<T, 3, T, 4, PixelMap::AddAlpha>(src, dst, m, kernel, ctx);
        }
        break;
      case PixelMap::DropAlpha:
        if constexpr (C == 4) {
          if (cout == 3 && dst.format.type == src.format.type)
            return run<T, 4, T, 3, PixelMap::DropAlpha>(src, dst, m, kernel, ctx);
        }
        break;
      case PixelMap::Swap:
        if constexpr (C >= 3) {
          if (dst.format == src.format) return run<T, C, T, C, PixelMap::Swap>(src, dst, m, kernel, ctx);
        }
        break;
      case PixelMap::Depth:
        if (cout == cin)
          return visit_type(dst.format.type, [&](auto out_tag) {
            using Tout = typename decltype(out_tag)::type;
            run<T, C, Tout, C, PixelMap::Depth>(src, dst, m, kernel, ctx);
          });
        break;
    }
    unsupported(src, dst);
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
