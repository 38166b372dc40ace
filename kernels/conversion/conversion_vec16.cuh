#pragma once
// The `vec16` conversions of 8-bit images (the library runs them with the warp's stage,
// conversion_vec16.cu; the lab without it): each thread maps 16 consecutive pixels of a
// row, so its input (16, 48 or 64 bytes) and its output (16 bytes per output channel)
// are whole 16-byte accesses whatever the pixel size; 3-byte pixels need no special
// case because 16 of them are 48 bytes, the smallest run of whole pixels that is a
// whole number of 16-byte chunks. A thread loads all its chunks before it stores any.
// Rows must start at 16-byte boundaries (the launchers check and return false
// otherwise, so the caller takes a kernel that handles any offset); a row's last,
// partial group of pixels goes pixel by pixel. `vec16_warp` also regroups the 48- and
// 64-byte sides through shared memory (warp_stage.cuh) so that global instructions
// are contiguous across the warp.
#include <cstdint>

#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "conversion/byte_words.cuh"
#include "conversion/conversion_launch.hpp"
#include "conversion/conversion_tuning.hpp"
#include "conversion/pixel_map.cuh"
#include "conversion/warp_stage.cuh"

namespace gpufilter::kernels {
namespace vec16_detail {

using u8 = std::uint8_t;
inline constexpr int kGroup = ConversionTuning::kVecPixels;  // 16 pixels per thread
inline constexpr int kThreadsX = ConversionTuning::kVecThreadsX, kThreadsY = ConversionTuning::kVecThreadsY;
static_assert(kGroup == 16, "a group of 16 pixels is a whole number of 16-byte chunks for 1..4 channels");

// The 16 pixels of `in` mapped into `out` (bytes at constant positions: registers only).
template <int Cin, int Cout, PixelMap kMap>
__device__ __forceinline__ void map_group(const ByteWords<4 * Cin>& in, ByteWords<4 * Cout>& out,
                                          const PixelMapping& m) {
  out.clear();
#pragma unroll
  for (int p = 0; p < kGroup; ++p) {
    Pixel<u8, Cin> pixel;
#pragma unroll
    for (int c = 0; c < Cin; ++c) pixel.c[c] = static_cast<u8>(in.byte(p * Cin + c));
    const Pixel<u8, Cout> mapped = map_pixel<u8, Cin, u8, Cout, kMap>(pixel, m);
#pragma unroll
    for (int c = 0; c < Cout; ++c) out.put(p * Cout + c, mapped.c[c]);
  }
}

constexpr int max_of(int a, int b) { return a > b ? a : b; }

// Lane l of a warp owns the group of 16 pixels starting at x0 = 16 * (32 * blockIdx.x + l)
// (blockDim.x is 32: a warp spans 512 pixels of one row). kWarp: warps whose 512 pixels
// all lie inside the row move 3- and 4-byte sides through a WarpStage (contiguous
// global instructions); the others, and kWarp = false, access their own chunks.
template <int Cin, int Cout, PixelMap kMap, bool kWarp>
__global__ void __launch_bounds__(kThreadsX* kThreadsY)
    convert_vec16_kernel(PitchedView<u8, Cin> src, PitchedView<u8, Cout> dst, PixelMapping m) {
  constexpr int kStageChunks = 32 * max_of(Cin, Cout);
  __shared__ uint4 stage[kWarp ? kThreadsY * kStageChunks : 1];
  const int lane = static_cast<int>(threadIdx.x);
  const long long warp_x0 = static_cast<long long>(blockIdx.x) * (32 * kGroup);
  const long long x0 = warp_x0 + static_cast<long long>(lane) * kGroup;
  const bool warp_whole = kWarp && warp_x0 + 32 * kGroup <= src.width;  // the same in every lane
  if (x0 >= src.width) return;  // never in a whole warp
  const bool whole = x0 + kGroup <= src.width;
  uint4* my_stage = stage + (kWarp ? threadIdx.y * kStageChunks : 0);
  for (long long y = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; y < src.height;
       y += static_cast<long long>(gridDim.y) * blockDim.y) {
    const unsigned char* s = src.data + static_cast<std::size_t>(y) * src.pitch;
    unsigned char* d = dst.data + static_cast<std::size_t>(y) * dst.pitch;
    if (whole) {
      ByteWords<4 * Cin> in;
      if (warp_whole && Cin > 1) {
        WarpStage<Cin>{my_stage}.load(s + warp_x0 * Cin, lane, lane, in);
      } else {
#pragma unroll
        for (int k = 0; k < Cin; ++k) in.load16(k, s + x0 * Cin + 16 * k);
      }
      ByteWords<4 * Cout> out;
      map_group<Cin, Cout, kMap>(in, out, m);
      if (warp_whole && Cout > 1) {
        WarpStage<Cout>{my_stage}.store(d + warp_x0 * Cout, lane, lane, out);
      } else {
#pragma unroll
        for (int k = 0; k < Cout; ++k) out.store16(k, d + x0 * Cout + 16 * k);
      }
    } else {
      for (int x = static_cast<int>(x0); x < src.width; ++x)
        dst.at(x, static_cast<int>(y)) = map_pixel<u8, Cin, u8, Cout, kMap>(src.at(x, static_cast<int>(y)), m);
    }
  }
}

// Interleaved C-channel rows to C planes (kToPlanar) or back: 16 pixels are C chunks
// on the interleaved side (through the warp's stage when kWarp and the warp is whole)
// and one chunk in each plane.
template <int C, bool kToPlanar, bool kWarp>
__global__ void __launch_bounds__(kThreadsX* kThreadsY)
    layout_vec16_kernel(unsigned char* image, std::size_t image_pitch, PlaneSet planes, int width, int height) {
  __shared__ uint4 stage[kWarp ? kThreadsY * 32 * C : 1];
  const int lane = static_cast<int>(threadIdx.x);
  const long long warp_x0 = static_cast<long long>(blockIdx.x) * (32 * kGroup);
  const long long x0 = warp_x0 + static_cast<long long>(lane) * kGroup;
  const bool warp_whole = kWarp && warp_x0 + 32 * kGroup <= width;
  if (x0 >= width) return;  // never in a whole warp
  const bool whole = x0 + kGroup <= width;
  const WarpStage<C> warp_stage{stage + (kWarp ? threadIdx.y * 32 * C : 0)};
  for (long long y = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; y < height;
       y += static_cast<long long>(gridDim.y) * blockDim.y) {
    unsigned char* row = image + static_cast<std::size_t>(y) * image_pitch;
    unsigned char* plane_row[C];
#pragma unroll
    for (int c = 0; c < C; ++c)
      plane_row[c] = static_cast<unsigned char*>(planes.planes[c]) + static_cast<std::size_t>(y) * planes.pitch + x0;
    if (whole) {
      ByteWords<4 * C> interleaved;
      ByteWords<4> plane[C];
      if constexpr (kToPlanar) {
        if (warp_whole) {
          warp_stage.load(row + warp_x0 * C, lane, lane, interleaved);
        } else {
#pragma unroll
          for (int k = 0; k < C; ++k) interleaved.load16(k, row + x0 * C + 16 * k);
        }
#pragma unroll
        for (int c = 0; c < C; ++c) {
          plane[c].clear();
#pragma unroll
          for (int p = 0; p < kGroup; ++p) plane[c].put(p, interleaved.byte(p * C + c));
          plane[c].store16(0, plane_row[c]);
        }
      } else {
#pragma unroll
        for (int c = 0; c < C; ++c) plane[c].load16(0, plane_row[c]);
        interleaved.clear();
#pragma unroll
        for (int c = 0; c < C; ++c)
#pragma unroll
          for (int p = 0; p < kGroup; ++p) interleaved.put(p * C + c, plane[c].byte(p));
        if (warp_whole) {
          warp_stage.store(row + warp_x0 * C, lane, lane, interleaved);
        } else {
#pragma unroll
          for (int k = 0; k < C; ++k) interleaved.store16(k, row + x0 * C + 16 * k);
        }
      }
    } else {
      for (long long i = 0; i < width - x0; ++i)
#pragma unroll
        for (int c = 0; c < C; ++c) {
          if constexpr (kToPlanar) plane_row[c][i] = row[(x0 + i) * C + c];
          else row[(x0 + i) * C + c] = plane_row[c][i];
        }
    }
  }
}

inline dim3 vec16_grid(int width, int height, const char* kernel) {
  return dim3(grid_x(blocks_for(blocks_for(width, kGroup), kThreadsX), kernel), grid_y(blocks_for(height, kThreadsY)));
}

template <int Cin, int Cout, PixelMap kMap, bool kWarp>
void run_vec16(const ImageView& src, const ImageView& dst, const PixelMapping& m, const ExecContext& ctx) {
  const dim3 grid = vec16_grid(src.width, src.height, "convert_vec16_kernel"), block(kThreadsX, kThreadsY);
  convert_vec16_kernel<Cin, Cout, kMap, kWarp>
      <<<grid, block, 0, ctx.stream>>>(pitched<u8, Cin>(src), pitched<u8, Cout>(dst), m);
}

template <int C, bool kToPlanar, bool kWarp>
void launch_layout(const ImageView& image, const PlaneSet& planes, const ExecContext& ctx) {
  const dim3 grid = vec16_grid(image.width, image.height, "layout_vec16_kernel"), block(kThreadsX, kThreadsY);
  auto* data = static_cast<unsigned char*>(image.data);
  layout_vec16_kernel<C, kToPlanar, kWarp>
      <<<grid, block, 0, ctx.stream>>>(data, image.pitch, planes, image.width, image.height);
}

template <bool kToPlanar, bool kWarp>
bool run_layout_vec16(const ImageView& image, const PlaneSet& planes, int channels, const ExecContext& ctx) {
  if (image.format.type != ChannelType::U8 || !rows_aligned(image.data, image.pitch, 16) || planes.pitch % 16 != 0)
    return false;
  for (int c = 0; c < channels; ++c)
    if (reinterpret_cast<std::uintptr_t>(planes.planes[c]) % 16 != 0) return false;
  if (channels == 3) launch_layout<3, kToPlanar, kWarp>(image, planes, ctx);
  else if (channels == 4) launch_layout<4, kToPlanar, kWarp>(image, planes, ctx);
  else return false;
  check_launch("layout_vec16_kernel", ctx);
  return true;
}

}  // namespace vec16_detail

// The vec16 conversion of a pixel map, the warp's stage or not (kWarp): false (launching
// nothing) where it does not apply (launch_convert_vec16 in conversion_launch.hpp).
template <bool kWarp>
bool convert_vec16(const ImageView& src, const ImageView& dst, const PixelMapping& m, const ExecContext& ctx) {
  using namespace vec16_detail;
  if (src.format.type != ChannelType::U8 || dst.format.type != ChannelType::U8 || !rows_aligned(src, dst, 16))
    return false;
  const int cin = src.format.channels, cout = dst.format.channels;
  switch (m.map) {
    case PixelMap::Gray:
      if (cin == 3 && cout == 1) run_vec16<3, 1, PixelMap::Gray, kWarp>(src, dst, m, ctx);
      else if (cin == 4 && cout == 1) run_vec16<4, 1, PixelMap::Gray, kWarp>(src, dst, m, ctx);
      else return false;
      break;
    case PixelMap::AddAlpha:
      if (cin != 3 || cout != 4) return false;
      run_vec16<3, 4, PixelMap::AddAlpha, kWarp>(src, dst, m, ctx);
      break;
    case PixelMap::DropAlpha:
      if (cin != 4 || cout != 3) return false;
      run_vec16<4, 3, PixelMap::DropAlpha, kWarp>(src, dst, m, ctx);
      break;
    case PixelMap::Swap:
      if (cin == 3 && cout == 3) run_vec16<3, 3, PixelMap::Swap, kWarp>(src, dst, m, ctx);
      else if (cin == 4 && cout == 4) run_vec16<4, 4, PixelMap::Swap, kWarp>(src, dst, m, ctx);
      else return false;
      break;
    case PixelMap::Depth: return false;  // u8 to u8 is a copy; other depths are not 8-bit outputs
  }
  check_launch("convert_vec16_kernel", ctx);
  return true;
}

// The vec16 layout conversions, likewise.
template <bool kWarp>
bool to_planar_vec16(const ImageView& src, const PlaneSet& dst, const ExecContext& ctx) {
  return vec16_detail::run_layout_vec16<true, kWarp>(src, dst, src.format.channels, ctx);
}
template <bool kWarp>
bool to_interleaved_vec16(const PlaneSet& src, const ImageView& dst, const ExecContext& ctx) {
  return vec16_detail::run_layout_vec16<false, kWarp>(dst, src, dst.format.channels, ctx);
}

}  // namespace gpufilter::kernels
