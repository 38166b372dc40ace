// The tiled 2-D filter (seed 004, "tiling with halo in shared memory"): each block
// loads its 32x32 output tile plus a halo of (w/2, h/2) pixels on every side (the
// "ghost elements" at the image edge come from the border policy, which only edge
// blocks pay for) into shared memory once, converted to float and premultiplied as
// they are stored. The tap loop then reads only shared memory and the constant cache
// (masks as broadcasts), raising the CGMA ratio from ~1 FMA per global load to
// w*h*32*32 / ((32+w-1)*(32+h-1)). Each thread computes 4 rows of one column, so
// every weight it reads serves 4 outputs from registers. Limit: the tile plus halo
// must fit one block's shared memory (filter2d_tiled_fits).
#include <string>

#include "common/border.cuh"
#include "common/device_limits.hpp"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "convolution/filter2d_constant_masks.cuh"
#include "convolution/filter2d_launch.hpp"
#include "convolution/filter2d_output.cuh"
#include "convolution/filter2d_tuning.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = Filter2dTuning;
constexpr int kRows = Tuning::kRowsPerThread;

template <int C>
std::size_t tiled_shared_bytes(int mask_w, int mask_h) {
  const std::size_t in_w = static_cast<std::size_t>(Tuning::kTileW) + (mask_w / 2) * 2;
  const std::size_t in_h = static_cast<std::size_t>(Tuning::kTileH) + (mask_h / 2) * 2;
  return in_w * in_h * sizeof(Accum<C>);
}

template <class T, int C, class B, int K>
__global__ void __launch_bounds__(Tuning::kTileBlockX * Tuning::kTileBlockY)
    filter2d_tiled_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, int mask_w, int mask_h, Pixel<T, C> constant,
                          Filter2dOutput out, int tile_rows) {
  extern __shared__ __align__(16) unsigned char shared[];
  auto* tile = reinterpret_cast<Accum<C>*>(shared);
  const int rw = mask_w / 2, rh = mask_h / 2, taps = mask_w * mask_h;
  const int in_w = Tuning::kTileW + 2 * rw;
  const int in_h = Tuning::kTileH + 2 * rh;
  const int tx = static_cast<int>(threadIdx.x);
  const int first_row = static_cast<int>(threadIdx.y) * kRows;  // in the output tile
  const int x = static_cast<int>(blockIdx.x) * Tuning::kTileW + tx;

  // gridDim.y is at most 65535: a block takes every gridDim.y-th row of tiles.
  for (int tile_y = static_cast<int>(blockIdx.y); tile_y < tile_rows; tile_y += static_cast<int>(gridDim.y)) {
    const int x0 = static_cast<int>(blockIdx.x) * Tuning::kTileW - rw;
    const int y0 = tile_y * Tuning::kTileH - rh;
    const bool interior = x0 >= 0 && y0 >= 0 && x0 + in_w <= src.width && y0 + in_h <= src.height;

    // 1. tile + halo -> shared floats, each converted (and premultiplied) once.
    for (int iy = static_cast<int>(threadIdx.y); iy < in_h; iy += Tuning::kTileBlockY)
      for (int ix = tx; ix < in_w; ix += Tuning::kTileBlockX) {
        const Pixel<T, C> p = interior ? src.at(x0 + ix, y0 + iy) : load_bordered<B>(src, x0 + ix, y0 + iy, constant);
        store_shared(tile + iy * in_w + ix, input_value<T, C>(p, out));
      }
    __syncthreads();

    // 2. taps from shared memory; each weight (a constant-cache broadcast) feeds kRows outputs.
    if (x < dst.width) {
      Accum<C> sums[kRows][K];
#pragma unroll
      for (int q = 0; q < kRows; ++q)
#pragma unroll
        for (int k = 0; k < K; ++k) sums[q][k] = zero_accum<C>();
      for (int j = 0; j < mask_h; ++j) {
        const Accum<C>* in = tile + (first_row + j) * in_w + tx;
        for (int i = 0; i < mask_w; ++i) {
          float w[K];
#pragma unroll
          for (int k = 0; k < K; ++k) w[k] = c_filter2d_masks[k * taps + j * mask_w + i];
#pragma unroll
          for (int q = 0; q < kRows; ++q) {
            const Accum<C> v = load_shared(in + q * in_w + i);
#pragma unroll
            for (int k = 0; k < K; ++k) accumulate(sums[q][k], w[k], v);
          }
        }
      }
#pragma unroll
      for (int q = 0; q < kRows; ++q) {
        const int y = tile_y * Tuning::kTileH + first_row + q;
        if (y >= dst.height) break;
        const Accum<C> centre = load_shared(tile + (first_row + q + rh) * in_w + tx + rw);
        dst.at(x, y) = filter2d_pixel<T, C, K>(sums[q], centre, out);
      }
    }
    __syncthreads();  // the next tile row reuses the shared buffer
  }
}

}  // namespace

bool filter2d_tiled_fits(PixelFormat format, const FilterSpec& spec) {
  return visit_format(format, [&](auto, auto channels) {
    return tiled_shared_bytes<decltype(channels)::value>(spec.width(), spec.height()) <=
           max_shared_memory_per_block();
  });
}

bool filter2d_tiled_runs(PixelFormat format, const FilterSpec& spec) {
  return filter2d_walk_fits(spec) || (filter2d_constant_fits(spec) && filter2d_tiled_fits(format, spec));
}

void launch_filter2d_tiled(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                           const ExecContext& ctx) {
  if (filter2d_walk_fits(spec)) launch_filter2d_walk(src, dst, spec, border, ctx);
  else launch_filter2d_tile(src, dst, spec, border, ctx);
}

void launch_filter2d_tile(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                          const ExecContext& ctx) {
  const int mask_count = filter2d_mask_count(spec, "filter2d_tiled");
  const std::vector<float> weights = filter2d_weights(spec);
  require_constant_fit(weights, spec, "filter2d_tiled");
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const std::size_t shared_bytes = tiled_shared_bytes<C>(spec.width(), spec.height());
    if (shared_bytes > max_shared_memory_per_block())
      throw Error(ErrorCode::UnsupportedFormat,
                  "filter2d_tiled: a " + std::to_string(spec.width()) + "x" + std::to_string(spec.height()) +
                      " mask on " + src.format.name() + " needs " + std::to_string(shared_bytes) +
                      " bytes of shared memory per block; this GPU allows " +
                      std::to_string(max_shared_memory_per_block()));
    const int tile_rows = static_cast<int>(blocks_for(src.height, Tuning::kTileH));
    const dim3 block(Tuning::kTileBlockX, Tuning::kTileBlockY);
    const dim3 grid(grid_x(blocks_for(src.width, Tuning::kTileW), "filter2d_tiled_kernel"), grid_y(tile_rows));
    visit_border(border.mode, [&](auto policy) {
      visit_mask_count(mask_count, [&](auto k) {
        auto kernel = filter2d_tiled_kernel<T, C, decltype(policy), decltype(k)::value>;
        // Large masks need more than the default 48 KiB of shared memory per block.
        allow_dynamic_shared(reinterpret_cast<const void*>(kernel), shared_bytes);
        filter2d_mask_slots().with_slot(weights, ctx.stream, [&](int) {
          kernel<<<grid, block, shared_bytes, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), spec.width(),
                                                            spec.height(), constant_pixel<T, C>(border),
                                                            make_filter2d_output<T, C>(spec), tile_rows);
          check_launch("filter2d_tiled_kernel", ctx);
        });
      });
    });
  });
}

}  // namespace gpufilter::kernels
