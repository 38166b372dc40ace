// The naive 2-D filter (seed 004's first kernel): one thread per output pixel, every
// tap a global-memory read of the mask and of the input, and the border decided by a
// runtime branch at every tap. Its CGMA ratio is about one FMA per global load (per
// channel); it runs any mask size and is the baseline the other variants beat.
#include "common/border.cuh"
#include "common/border_map.hpp"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/stream_buffer.hpp"
#include "convolution/filter2d_launch.hpp"
#include "convolution/filter2d_output.cuh"
#include "convolution/filter2d_tuning.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = Filter2dTuning;

template <class T, int C, int K>
__global__ void __launch_bounds__(Tuning::kSimpleBlockX * Tuning::kSimpleBlockY)
    filter2d_naive_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, const float* masks, int mask_w, int mask_h,
                          BorderMode mode, Pixel<T, C> constant, Filter2dOutput out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= src.width) return;
  const int rw = mask_w / 2, rh = mask_h / 2, taps = mask_w * mask_h;
  // Rows beyond gridDim.y (at most 65535 blocks) are walked with a stride.
  for (long long row = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; row < src.height;
       row += static_cast<long long>(gridDim.y) * blockDim.y) {
    const int y = static_cast<int>(row);
    Accum<C> sums[K];
#pragma unroll
    for (int k = 0; k < K; ++k) sums[k] = zero_accum<C>();
    for (int j = 0; j < mask_h; ++j) {
      const int sy = border_map(y + j - rh, src.height, mode);
      for (int i = 0; i < mask_w; ++i) {
        const int sx = border_map(x + i - rw, src.width, mode);
        Pixel<T, C> p = constant;  // a copy, not a reference that may point at either space
        if (sx >= 0 && sy >= 0) p = src.at(sx, sy);
        const Accum<C> v = input_value<T, C>(p, out);
#pragma unroll
        for (int k = 0; k < K; ++k) accumulate(sums[k], masks[k * taps + j * mask_w + i], v);
      }
    }
    dst.at(x, y) = filter2d_pixel<T, C, K>(sums, input_value<T, C>(src.at(x, y), out), out);
  }
}

}  // namespace

void launch_filter2d_naive(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                           const ExecContext& ctx) {
  const int mask_count = filter2d_mask_count(spec, "filter2d_naive");
  const std::vector<float> weights = filter2d_weights(spec);
  const StreamBuffer mask_buffer(sizeof(float) * weights.size(), ctx.stream);
  // From pageable memory: the runtime stages the copy before returning, so `weights`
  // need not outlive the call.
  GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(mask_buffer.get<float>(), weights.data(), sizeof(float) * weights.size(),
                                       cudaMemcpyHostToDevice, ctx.stream));

  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const dim3 block(Tuning::kSimpleBlockX, Tuning::kSimpleBlockY);
    const dim3 grid(grid_x(blocks_for(src.width, Tuning::kSimpleBlockX), "filter2d_naive_kernel"),
                    grid_y(blocks_for(src.height, Tuning::kSimpleBlockY)));
    visit_mask_count(mask_count, [&](auto k) {
      filter2d_naive_kernel<T, C, decltype(k)::value><<<grid, block, 0, ctx.stream>>>(
          pitched<T, C>(src), pitched<T, C>(dst), mask_buffer.get<float>(), spec.width(), spec.height(), border.mode,
          constant_pixel<T, C>(border), make_filter2d_output<T, C>(spec));
    });
  });
  check_launch("filter2d_naive_kernel", ctx);
}

}  // namespace gpufilter::kernels
