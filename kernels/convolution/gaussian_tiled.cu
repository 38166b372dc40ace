// The tiled blur (seed 004, "tiling with halo in shared memory", with the mask in
// __constant__ memory). Each block owns a kTileW x kTileH output tile:
//   1. it loads the tile plus `radius` halo pixels on every side into shared memory,
//      once, applying the border policy only in blocks that touch the image edge;
//   2. it filters the rows of that input tile horizontally into a float buffer;
//   3. it filters that buffer vertically and writes the output tile.
// Tuning (tile shape, rows per thread) is in convolution_tuning.hpp.
// Every warp reads the same mask tap at the same time: a constant-cache broadcast.
#include <algorithm>

#include "common/border.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "convolution/convolution_launch.hpp"
#include "convolution/convolution_tuning.hpp"
#include "convolution/mask_slots.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = ConvolutionTuning;

__constant__ float c_masks[Tuning::kMaskSlots][Tuning::kMaxTaps];

MaskSlots& mask_slots() {
  static MaskSlots slots(Tuning::kMaskSlots, Tuning::kMaxTaps,
                         [](int slot, const float* weights, int count, cudaStream_t stream) {
                           GPUFILTER_CUDA_CHECK(cudaMemcpyToSymbolAsync(
                               c_masks, weights, sizeof(float) * static_cast<std::size_t>(count),
                               sizeof(float) * static_cast<std::size_t>(slot) * Tuning::kMaxTaps,
                               cudaMemcpyHostToDevice, stream));
                         });
  return slots;
}

constexpr std::size_t align16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

template <class T, int C>
std::size_t tiled_shared_bytes(int radius) {
  const std::size_t in_w = Tuning::kTileW + 2 * radius, in_h = Tuning::kTileH + 2 * radius;
  return align16(in_w * in_h * sizeof(Pixel<T, C>)) + in_h * Tuning::kTileW * sizeof(Accum<C>);
}

template <class T, int C, class B>
__global__ void __launch_bounds__(Tuning::kBlockX * Tuning::kBlockY)
    gaussian_tiled_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, int radius, int slot, Pixel<T, C> constant) {
  extern __shared__ __align__(16) unsigned char shared[];
  const int in_w = Tuning::kTileW + 2 * radius;
  const int in_h = Tuning::kTileH + 2 * radius;
  auto* tile = reinterpret_cast<Pixel<T, C>*>(shared);
  auto* rows = reinterpret_cast<Accum<C>*>(shared + align16(sizeof(Pixel<T, C>) * in_w * in_h));
  const float* mask = c_masks[slot];
  const int taps = 2 * radius + 1;

  const int x0 = static_cast<int>(blockIdx.x) * Tuning::kTileW - radius;
  const int y0 = static_cast<int>(blockIdx.y) * Tuning::kTileH - radius;
  const bool interior = x0 >= 0 && y0 >= 0 && x0 + in_w <= src.width && y0 + in_h <= src.height;

  // 1. tile + halo -> shared memory
  for (int ty = static_cast<int>(threadIdx.y); ty < in_h; ty += Tuning::kBlockY)
    for (int tx = static_cast<int>(threadIdx.x); tx < in_w; tx += Tuning::kBlockX)
      tile[ty * in_w + tx] = interior ? src.at(x0 + tx, y0 + ty)
                                      : load_bordered<B>(src, x0 + tx, y0 + ty, constant);
  __syncthreads();

  // 2. horizontal pass over every input row, for the tile's output columns
  const int tx = static_cast<int>(threadIdx.x);
  for (int ty = static_cast<int>(threadIdx.y); ty < in_h; ty += Tuning::kBlockY) {
    Accum<C> sum = zero_accum<C>();
    const Pixel<T, C>* row = tile + ty * in_w + tx;
    for (int k = 0; k < taps; ++k) accumulate(sum, mask[k], row[k]);
    rows[ty * Tuning::kTileW + tx] = sum;
  }
  __syncthreads();

  // 3. vertical pass: each thread owns kRowsPerThread consecutive output rows and
  //    reads every buffered row it needs once, adding it to each output it touches
  //    (2 shared reads per output for a 5x5 mask instead of 5).
  constexpr int kRows = Tuning::kTileH / Tuning::kBlockY;
  const int x = static_cast<int>(blockIdx.x) * Tuning::kTileW + tx;
  const int first_row = static_cast<int>(threadIdx.y) * kRows;
  Accum<C> sums[kRows];
#pragma unroll
  for (int j = 0; j < kRows; ++j) sums[j] = zero_accum<C>();
  for (int i = 0; i < kRows + 2 * radius; ++i) {
    const Accum<C> value = rows[(first_row + i) * Tuning::kTileW + tx];
#pragma unroll
    for (int j = 0; j < kRows; ++j) {
      const int k = i - j;  // the tap that row first_row + i is for output row first_row + j
      if (k >= 0 && k < taps) accumulate(sums[j], mask[k], value);
    }
  }
  if (x >= dst.width) return;
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    const int y = static_cast<int>(blockIdx.y) * Tuning::kTileH + first_row + j;
    if (y < dst.height) dst.at(x, y) = to_pixel<T, C>(sums[j]);
  }
}

}  // namespace

void launch_gaussian_tiled(const ImageView& src, const ImageView& dst, const std::vector<float>& weights,
                           const Border& border, const ExecContext& ctx) {
  const int radius = static_cast<int>(weights.size()) / 2;
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    Pixel<T, C> constant{};
    for (int c = 0; c < C; ++c) constant.c[c] = static_cast<T>(border.value[static_cast<std::size_t>(c)]);
    const std::size_t shared_bytes = tiled_shared_bytes<T, C>(radius);
    const dim3 block(Tuning::kBlockX, Tuning::kBlockY);
    const dim3 grid(ceil_div(src.width, Tuning::kTileW), ceil_div(src.height, Tuning::kTileH));
    visit_border(border.mode, [&](auto policy) {
      auto kernel = gaussian_tiled_kernel<T, C, decltype(policy)>;
      // Large radii need more than the default 48 KiB of shared memory per block.
      GPUFILTER_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(shared_bytes)));
      mask_slots().with_slot(weights, ctx.stream, [&](int slot) {
        kernel<<<grid, block, shared_bytes, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), radius, slot,
                                                          constant);
        check_launch("gaussian_tiled_kernel", ctx);
      });
    });
  });
}

}  // namespace gpufilter::kernels
