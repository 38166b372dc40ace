// Halving with the area filter on 8-bit images: every output pixel is the average of
// a 2x2 box, (a + b + c + d) / 4 rounded to nearest with ties to even, which is what
// the general area kernel computes for a ratio of exactly 2 (weights 1, total 4, all
// sums exact in float). A thread makes P output pixels (P * C a multiple of 16: 16
// pixels of 1 and 3 bytes, 4 of 4 bytes): it reads 2 P source pixels of each of the two
// source rows as 16-byte words (2 P C bytes per row) and writes P C bytes as 16-byte
// words, byte arithmetic in registers. Rows must start at 16-byte boundaries (the
// launcher checks); the row's last, partial run of pixels goes byte by byte.
#include <cstdint>

#include "common/launch.cuh"
#include "conversion/byte_words.cuh"
#include "geometry/geometry_launch.hpp"
#include "geometry/geometry_tuning.hpp"

namespace gpufilter::kernels {
namespace {

// round((a + b + c + d) / 4), ties to even, for a sum s of four bytes.
__device__ __forceinline__ unsigned average4(unsigned s) {
  const unsigned q = s >> 2, r = s & 3u;
  return q + ((r + (q & 1u)) > 2u ? 1u : 0u);
}

template <int C>
__global__ void __launch_bounds__(GeometryTuning::kHalfThreadsX* GeometryTuning::kHalfThreadsY)
    resize_half_area_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                            std::size_t dst_pitch, int out_width, int out_height) {
  constexpr int P = C == 4 ? 4 : 16;  // output pixels per thread
  constexpr int kOut = P * C, kIn = 2 * P * C;  // bytes written, bytes read from each source row
  static_assert(kOut % 16 == 0, "whole 16-byte output words");
  const long long x0 = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * P;
  if (x0 >= out_width) return;
  const bool whole = x0 + P <= out_width;
  for (long long y = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; y < out_height;
       y += static_cast<long long>(gridDim.y) * blockDim.y) {
    const unsigned char* top = src + static_cast<std::size_t>(2 * y) * src_pitch + 2 * x0 * C;
    const unsigned char* bottom = top + src_pitch;
    unsigned char* out_row = dst + static_cast<std::size_t>(y) * dst_pitch + x0 * C;
    if (whole) {
      ByteWords<kIn / 4> a, b;
#pragma unroll
      for (int k = 0; k < kIn / 16; ++k) a.load16(k, top + 16 * k);
#pragma unroll
      for (int k = 0; k < kIn / 16; ++k) b.load16(k, bottom + 16 * k);
      ByteWords<kOut / 4> out;
      out.clear();
#pragma unroll
      for (int j = 0; j < kOut; ++j) {
        const int left = 2 * C * (j / C) + j % C, right = left + C;  // the box's two columns, channel j % C
        out.put(j, average4(a.byte(left) + a.byte(right) + b.byte(left) + b.byte(right)));
      }
#pragma unroll
      for (int k = 0; k < kOut / 16; ++k) out.store16(k, out_row + 16 * k);
    } else {
      const int bytes = static_cast<int>((out_width - x0) * C);
      for (int j = 0; j < bytes; ++j) {
        const int left = 2 * C * (j / C) + j % C, right = left + C;
        out_row[j] = static_cast<unsigned char>(average4(top[left] + top[right] + bottom[left] + bottom[right]));
      }
    }
  }
}

template <int C>
void launch_half(const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  constexpr int P = C == 4 ? 4 : 16;
  constexpr int TX = GeometryTuning::kHalfThreadsX, TY = GeometryTuning::kHalfThreadsY;
  const dim3 grid(grid_x(blocks_for(blocks_for(dst.width, P), TX), "resize_half_area_kernel"),
                  grid_y(blocks_for(dst.height, TY)));
  resize_half_area_kernel<C><<<grid, dim3(TX, TY), 0, ctx.stream>>>(static_cast<const unsigned char*>(src.data),
                                                                    src.pitch, static_cast<unsigned char*>(dst.data),
                                                                    dst.pitch, dst.width, dst.height);
}

}  // namespace

bool launch_resize_half_area(const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  if (src.format.type != ChannelType::U8 || dst.format != src.format || src.width != 2 * dst.width ||
      src.height != 2 * dst.height || !rows_aligned(src, dst, 16))
    return false;
  switch (src.format.channels) {
    case 1: launch_half<1>(src, dst, ctx); break;
    case 3: launch_half<3>(src, dst, ctx); break;
    case 4: launch_half<4>(src, dst, ctx); break;
    default: return false;
  }
  check_launch("resize_half_area_kernel", ctx);
  return true;
}

}  // namespace gpufilter::kernels
