// The lab's staged conversion (superseded by the library's vec16_warp, which reaches
// 16-byte accesses without the shared-memory round trip): a block moves a segment of a
// row into shared memory in 16-byte pieces, converts it there, and moves the output
// segment out the same way, whatever the pixel size and the rows' offsets.
#include <cstdint>

#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "conversion/conversion_launch.hpp"
#include "conversion/pixel_map.cuh"
#include "conversion/pixel_map_visit.cuh"
#include "lab/conversion/conversion_lab_launch.hpp"

namespace gpufilter::lab {
namespace {

using namespace gpufilter::kernels;  // pixels, views and the pixel maps

// 256 threads move a 1024-pixel segment of a row (16 KiB in and out at most, for f32x4:
// 32 KiB of static shared memory, under every GPU's 48 KiB).
constexpr int kStagedThreads = 256, kStagedPixels = 1024;

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

}  // namespace

void launch_convert_staged(const ImageView& src, const ImageView& dst, const kernels::PixelMapping& mapping,
                           const ExecContext& ctx) {
  const PixelMapping m = with_selectors(mapping, src.format);
  const dim3 grid(grid_x(blocks_for(src.width, kStagedPixels), "convert_staged_kernel"), grid_y(src.height));
  visit_pixel_map(src, dst, m.map, [&](auto tin, auto cin, auto tout, auto cout, auto map) {
    using Tin = typename decltype(tin)::type;
    using Tout = typename decltype(tout)::type;
    constexpr int Cin = decltype(cin)::value, Cout = decltype(cout)::value;
    convert_staged_kernel<Tin, Cin, Tout, Cout, decltype(map)::value>
        <<<grid, kStagedThreads, 0, ctx.stream>>>(pitched<Tin, Cin>(src), pitched<Tout, Cout>(dst), m);
  });
  check_launch("convert_staged_kernel", ctx);
}

}  // namespace gpufilter::lab
