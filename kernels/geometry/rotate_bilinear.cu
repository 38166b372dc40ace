// Rotation by any angle: each output pixel maps back into the source (an affine map
// the host computes in double) and is interpolated from the four pixels around that
// point; pixels outside the source count as the fill colour, as cv::warpAffine with
// BORDER_CONSTANT, so edges blend into the fill instead of stair-stepping.
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "geometry/geometry_launch.hpp"

namespace gpufilter::kernels {
namespace {

// src(sx, sy) for dst(x, y): sx = m[0]*x + m[1]*y + m[2], sy = m[3]*x + m[4]*y + m[5],
// in double: a float position is 1e-4 pixel off at 2000 pixels, enough to move 8-bit
// results across rounding boundaries; only the fractions are kept in float.
struct InverseMap {
  double m[6];
};

template <class T, int C>
__global__ void rotate_bilinear_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, InverseMap map, Accum<C> fill) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= dst.width) return;
  for (long long yy = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; yy < dst.height;
       yy += static_cast<long long>(gridDim.y) * blockDim.y) {
    const double fx = static_cast<double>(x), fy = static_cast<double>(yy);
    const double sx = fma(map.m[0], fx, fma(map.m[1], fy, map.m[2]));
    const double sy = fma(map.m[3], fx, fma(map.m[4], fy, map.m[5]));
    const double x0f = floor(sx), y0f = floor(sy);
    const float wx = static_cast<float>(sx - x0f), wy = static_cast<float>(sy - y0f);
    Accum<C> sum = zero_accum<C>();
    // Far outside (or NaN-free but huge) positions take the fill without indexing.
    if (x0f >= -1.0 && x0f < static_cast<double>(src.width) && y0f >= -1.0 && y0f < static_cast<double>(src.height)) {
      const int x0 = static_cast<int>(x0f), y0 = static_cast<int>(y0f);
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const int y = y0 + j;
        const float w_row = j == 0 ? 1.0f - wy : wy;
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          const int xi = x0 + i;
          const float w = w_row * (i == 0 ? 1.0f - wx : wx);
          if (xi >= 0 && xi < src.width && y >= 0 && y < src.height)
            accumulate(sum, w, src.at(xi, y));
          else
            accumulate(sum, w, fill);
        }
      }
    } else {
      sum = fill;
    }
    dst.at(x, static_cast<int>(yy)) = to_pixel<T, C>(sum);
  }
}

}  // namespace

void launch_rotate_bilinear(const ImageView& src, const ImageView& dst, const double inverse_map[6],
                            const double fill[4], const ExecContext& ctx) {
  InverseMap map;
  for (int i = 0; i < 6; ++i) map.m[i] = inverse_map[i];
  constexpr int kBlockX = 32, kBlockY = 8;
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    Accum<C> fill_accum;
    for (int c = 0; c < C; ++c) fill_accum.c[c] = static_cast<float>(fill[c]);
    const dim3 grid(grid_x(blocks_for(dst.width, kBlockX), "rotate_bilinear_kernel"),
                    grid_y(blocks_for(dst.height, kBlockY)));
    rotate_bilinear_kernel<T, C><<<grid, dim3(kBlockX, kBlockY), 0, ctx.stream>>>(pitched<T, C>(src),
                                                                                   pitched<T, C>(dst), map, fill_accum);
  });
  check_launch("rotate_bilinear_kernel", ctx);
}

}  // namespace gpufilter::kernels
