// The 2-D filter with its masks in __constant__ memory (seed 004, "constant memory and
// caching"): every thread of a warp reads the same tap at the same time, which the
// constant cache serves as one broadcast, so only the input pixels still come from
// global memory (through L1/L2). One thread per pixel, no shared memory: this variant
// measures what the constant cache alone buys over the naive kernel. Blocks whose taps
// all fall inside the image read them without a test; the others test every tap and map
// the ones outside through the border mode, a runtime value.
#include "common/border_runtime.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "convolution/filter2d_constant_masks.cuh"
#include "convolution/filter2d_launch.hpp"
#include "convolution/filter2d_output.cuh"
#include "convolution/filter2d_tuning.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = Filter2dTuning;

template <class T, int C, int K>
__global__ void __launch_bounds__(Tuning::kSimpleBlockX * Tuning::kSimpleBlockY)
    filter2d_constant_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, int mask_w, int mask_h,
                             BorderMode mode, Pixel<T, C> constant, Filter2dOutput out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= src.width) return;
  const int rw = mask_w / 2, rh = mask_h / 2, taps = mask_w * mask_h;
  // Whether the block's columns, with the taps' reach either side, lie inside the image.
  const int x0 = static_cast<int>(blockIdx.x) * Tuning::kSimpleBlockX;
  const bool columns_inside = x0 - rw >= 0 && x0 + Tuning::kSimpleBlockX + rw <= src.width;
  // Rows beyond gridDim.y (at most 65535 blocks) are walked with a stride.
  for (long long row = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; row < src.height;
       row += static_cast<long long>(gridDim.y) * blockDim.y) {
    const int y = static_cast<int>(row);
    const int y0 = y - static_cast<int>(threadIdx.y);  // the block's first row (uniform)
    const bool interior = columns_inside && y0 - rh >= 0 && y0 + Tuning::kSimpleBlockY + rh <= src.height;
    Accum<C> sums[K];
#pragma unroll
    for (int k = 0; k < K; ++k) sums[k] = zero_accum<C>();
    const auto add_taps = [&](auto load) {
      for (int j = 0; j < mask_h; ++j) {
        for (int i = 0; i < mask_w; ++i) {
          const Accum<C> v = input_value<T, C>(load(x + i - rw, y + j - rh), out);
#pragma unroll
          for (int k = 0; k < K; ++k) accumulate(sums[k], c_filter2d_masks[k * taps + j * mask_w + i], v);
        }
      }
    };
    if (interior)
      add_taps([&](int sx, int sy) { return src.at(sx, sy); });
    else
      add_taps([&](int sx, int sy) { return load_bordered(src, sx, sy, mode, constant); });
    dst.at(x, y) = filter2d_pixel<T, C, K>(sums, input_value<T, C>(src.at(x, y), out), out);
  }
}

}  // namespace

bool filter2d_constant_fits(const FilterSpec& spec) {
  return static_cast<long long>(spec.masks.size()) * spec.width() * spec.height() <= Tuning::kConstantCapacity;
}

void launch_filter2d_constant(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                              const Border& border, const ExecContext& ctx) {
  const int mask_count = filter2d_mask_count(spec, "filter2d_constant");
  const std::vector<float> weights = filter2d_weights(spec);
  require_constant_fit(weights, spec, "filter2d_constant");
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const dim3 block(Tuning::kSimpleBlockX, Tuning::kSimpleBlockY);
    const dim3 grid(grid_x(blocks_for(src.width, Tuning::kSimpleBlockX), "filter2d_constant_kernel"),
                    grid_y(blocks_for(src.height, Tuning::kSimpleBlockY)));
    visit_mask_count(mask_count, [&](auto k) {
      filter2d_mask_slots().with_slot(weights, ctx.stream, [&](int) {
        filter2d_constant_kernel<T, C, decltype(k)::value><<<grid, block, 0, ctx.stream>>>(
            pitched<T, C>(src), pitched<T, C>(dst), spec.width(), spec.height(), border.mode,
            constant_pixel<T, C>(border), make_filter2d_output<T, C>(spec));
        check_launch("filter2d_constant_kernel", ctx);
      });
    });
  });
}

}  // namespace gpufilter::kernels
