#pragma once
// Bilinear rotation from global memory, tiled (rotate_tile.cuh): fixed-point steps
// from one double start per thread, branch-free edges (taps are clamped into the source and
// those outside weigh on the fill instead), and a warp's pixels in a compact 2-D patch
// so that each load instruction touches few L1 lines. PX = 1: a pixel a lane per row
// (tiled, the library's: rotate_bilinear_tiled.cu); PX = 4: four adjacent pixels a lane,
// stored as 16-byte words where the destination row allows (the lab's bilinear_wide).
#include <cstdint>

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "geometry/geometry_launch.hpp"
#include "geometry/rotate_tile.cuh"

namespace gpufilter::kernels {

__device__ __forceinline__ int clamp_to(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

template <class T, int C, int PX>
union RotatedPixels {
  static constexpr bool kWords = (sizeof(Pixel<T, C>) * PX) % 16 == 0;
  static constexpr int kWordCount = kWords ? static_cast<int>(sizeof(Pixel<T, C>)) * PX / 16 : 1;
  uint4 word[kWordCount];
  Pixel<T, C> pixel[PX];
};

template <class T, int C, int PX>
__global__ void __launch_bounds__(32 * RotateTile::kWarpsX)
    rotate_bilinear_tiled_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, RotateMap map, Accum<C> fill) {
  const RotateStart start = rotate_start<PX>(map);
  if (start.x >= dst.width) return;
  const Pixel<T, C> fill_pixel = to_pixel<T, C, false>(fill);  // what the edge path makes of all-outside taps
#pragma unroll
  for (int s = 0; s < RotateTile::kSteps; ++s) {
    const int y = start.y + s * RotateTile::kLanesY;
    if (y >= dst.height) break;
    RotatedPixels<T, C, PX> out;
#pragma unroll
    for (int k = 0; k < PX; ++k) {
      const long long px = step_position(start.fixed_x, map.row_step_x, map.down_step_x, k, s);
      const long long py = step_position(start.fixed_y, map.row_step_y, map.down_step_y, k, s);
      // Most pixels are inside the source or wholly outside it: their shortcuts skip the
      // clamps, the edge weights and (outside) the loads. Warps diverge only along the edge.
      const TapPlace place = tap_place(px, py, src.width, src.height);
      if (place == TapPlace::Inside) {
        out.pixel[k] = to_pixel<T, C, false>(blend_inside(src, px, py));  // convex: in range
        continue;
      }
      if (place == TapPlace::Outside) {
        out.pixel[k] = fill_pixel;
        continue;
      }
      const BilinearTaps t = bilinear_taps(px, py, src.width, src.height);
      const int x0 = clamp_to(t.ix, src.width), x1 = clamp_to(t.ix + 1, src.width);
      const int y0 = clamp_to(t.iy, src.height), y1 = clamp_to(t.iy + 1, src.height);
      const Accum<C> p00 = to_accum(src.at(x0, y0)), p01 = to_accum(src.at(x1, y0));
      const Accum<C> p10 = to_accum(src.at(x0, y1)), p11 = to_accum(src.at(x1, y1));
      out.pixel[k] = to_pixel<T, C, false>(blend(t, p00, p01, p10, p11, fill));  // convex: in range
    }
    Pixel<T, C>* row = &dst.at(start.x, y);
    if (RotatedPixels<T, C, PX>::kWords && start.x + PX <= dst.width &&
        reinterpret_cast<std::uintptr_t>(row) % 16 == 0) {
#pragma unroll
      for (int w = 0; w < RotatedPixels<T, C, PX>::kWordCount; ++w) reinterpret_cast<uint4*>(row)[w] = out.word[w];
    } else {
#pragma unroll
      for (int k = 0; k < PX; ++k)
        if (start.x + k < dst.width) row[k] = out.pixel[k];
    }
  }
}

// The kernel for any format, PX pixels a lane.
template <int PX>
void launch_rotate_tiled(const ImageView& src, const ImageView& dst, const RotateMap& map, const double fill[4],
                  const ExecContext& ctx) {
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    Accum<C> fill_accum;
    for (int c = 0; c < C; ++c) fill_accum.c[c] = static_cast<float>(fill[c]);
    constexpr int kBlockWidth = RotateTile::kWarpsX * RotateTile::kLanesX * PX;
    const dim3 grid(grid_x(blocks_for(dst.width, kBlockWidth), "rotate_bilinear_tiled_kernel"),
                    static_cast<unsigned>(blocks_for(dst.height, RotateTile::kRows)));
    rotate_bilinear_tiled_kernel<T, C, PX><<<grid, dim3(32, RotateTile::kWarpsX), 0, ctx.stream>>>(
        pitched<T, C>(src), pitched<T, C>(dst), map, fill_accum);
  });
  check_launch("rotate_bilinear_tiled_kernel", ctx);
}

}  // namespace gpufilter::kernels
