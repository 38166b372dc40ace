// The tiled blur (seed 004, "tiling with halo in shared memory", with the mask in
// __constant__ memory). Each block owns an output tile (32*P x 32 pixels, P pixels
// per thread in x, 4 rows per thread in y):
//   1. it loads the tile plus `radius` halo pixels on every side into shared memory,
//      once, applying the border policy only in blocks that touch the image edge;
//   2. it filters the rows of that input tile horizontally into a float buffer;
//   3. it filters that buffer vertically and writes the output tile.
// Passes 2 and 3 keep sliding windows in registers, so each shared value is read
// once per thread. Tuning (tile shape, P, rows per thread) is in convolution_tuning.hpp.
// Every warp reads the same mask tap at the same time: a constant-cache broadcast.
#include <algorithm>
#include <type_traits>

#include "common/border.cuh"
#include "common/device_limits.hpp"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "convolution/convolution_launch.hpp"
#include "convolution/convolution_tuning.hpp"
#include "convolution/mask_slots.hpp"
#include "gpufilter/ops.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = ConvolutionTuning;
static_assert(Tuning::kMaxRadius == GaussianParams::kMaxRadius, "the mask slots must hold the largest mask");

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

// Output tile of a block: kBlockX threads x P pixels wide, kBlockY threads x kRows tall.
template <class T, int C>
constexpr int tile_width() {
  return Tuning::kBlockX * Tuning::pixels_per_thread(sizeof(T) * C);
}
constexpr int kRows = Tuning::kRowsPerThread;
constexpr int kTileH = Tuning::kBlockY * kRows;

template <class T, int C>
std::size_t tiled_shared_bytes(int radius) {
  const std::size_t in_w = tile_width<T, C>() + 2 * radius, in_h = kTileH + 2 * radius;
  return align16(in_w * in_h * sizeof(Pixel<T, C>)) + in_h * tile_width<T, C>() * sizeof(Accum<C>);
}

// kRadius > 0: the radius is a compile-time constant, every loop unrolls fully and
// the taps become immediate operands; kRadius == 0: `runtime_radius` is used.
template <class T, int C, class B, int kRadius>
__global__ void __launch_bounds__(Tuning::kBlockX * Tuning::kBlockY)
    gaussian_tiled_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, int runtime_radius, int slot,
                          Pixel<T, C> constant, int tile_rows) {
  const int radius = kRadius > 0 ? kRadius : runtime_radius;
  constexpr int P = Tuning::pixels_per_thread(sizeof(T) * C);
  constexpr int kTileW = tile_width<T, C>();
  extern __shared__ __align__(16) unsigned char shared[];
  const int in_w = kTileW + 2 * radius;
  const int in_h = kTileH + 2 * radius;
  // tile: the input pixels, as stored. rows: the horizontal pass's sums, laid out
  // [input row][j][thread x] so that for each of a thread's P columns j the warp
  // touches consecutive words (no bank conflicts).
  auto* tile = reinterpret_cast<Pixel<T, C>*>(shared);
  auto* rows = reinterpret_cast<Accum<C>*>(shared + align16(sizeof(Pixel<T, C>) * in_w * in_h));
  const float* mask = c_masks[slot];
  const int taps = 2 * radius + 1;
  const int tx = static_cast<int>(threadIdx.x);

  // gridDim.y is at most 65535: a block takes every gridDim.y-th row of tiles.
  for (int tile_y = static_cast<int>(blockIdx.y); tile_y < tile_rows; tile_y += static_cast<int>(gridDim.y)) {
    const int x0 = static_cast<int>(blockIdx.x) * kTileW - radius;
    const int y0 = tile_y * kTileH - radius;
    const bool interior = x0 >= 0 && y0 >= 0 && x0 + in_w <= src.width && y0 + in_h <= src.height;

    // 1. tile + halo -> shared memory; only edge blocks pay for the border policy.
    //    Each thread issues kLoadBatch independent loads before storing any, so enough
    //    bytes are in flight to cover DRAM latency.
    constexpr int kBatch = Tuning::kLoadBatch;
    for (int ix = tx; ix < in_w; ix += Tuning::kBlockX)
      for (int ty0 = static_cast<int>(threadIdx.y); ty0 < in_h; ty0 += Tuning::kBlockY * kBatch) {
        Pixel<T, C> values[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          const int ty = ty0 + u * Tuning::kBlockY;
          if (ty < in_h)
            values[u] = interior ? src.at(x0 + ix, y0 + ty) : load_bordered<B>(src, x0 + ix, y0 + ty, constant);
        }
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          const int ty = ty0 + u * Tuning::kBlockY;
          if (ty < in_h) tile[ty * in_w + ix] = values[u];
        }
      }
    __syncthreads();

    // 2. horizontal pass: a thread's P adjacent outputs of one row slide over P + 2r
    //    input pixels, each read (and converted to float) once.
    for (int ty = static_cast<int>(threadIdx.y); ty < in_h; ty += Tuning::kBlockY) {
      Accum<C> sums[P];
#pragma unroll
      for (int j = 0; j < P; ++j) sums[j] = zero_accum<C>();
      const Pixel<T, C>* in = tile + ty * in_w + tx * P;
#pragma unroll
      for (int i = 0; i < P + 2 * radius; ++i) {
        const Accum<C> value = to_accum(in[i]);  // converted once, used by up to P outputs
#pragma unroll
        for (int j = 0; j < P; ++j) {
          const int k = i - j;  // the tap input i is for output j
          if (k >= 0 && k < taps) accumulate(sums[j], mask[k], value);
        }
      }
#pragma unroll
      for (int j = 0; j < P; ++j) rows[(ty * P + j) * Tuning::kBlockX + tx] = sums[j];
    }
    __syncthreads();

    // 3. vertical pass: a thread's kRows consecutive outputs in each of its P columns
    //    slide over kRows + 2r buffered rows, each read once.
    const int first_row = static_cast<int>(threadIdx.y) * kRows;
    Accum<C> sums[P][kRows];
#pragma unroll
    for (int j = 0; j < P; ++j)
#pragma unroll
      for (int q = 0; q < kRows; ++q) sums[j][q] = zero_accum<C>();
#pragma unroll
    for (int i = 0; i < kRows + 2 * radius; ++i) {
#pragma unroll
      for (int j = 0; j < P; ++j) {
        const Accum<C> value = rows[((first_row + i) * P + j) * Tuning::kBlockX + tx];
#pragma unroll
        for (int q = 0; q < kRows; ++q) {
          const int k = i - q;
          if (k >= 0 && k < taps) accumulate(sums[j][q], mask[k], value);
        }
      }
    }
    const int x = static_cast<int>(blockIdx.x) * kTileW + tx * P;
#pragma unroll
    for (int q = 0; q < kRows; ++q) {
      const int y = tile_y * kTileH + first_row + q;
      if (y >= dst.height) break;
#pragma unroll
      for (int j = 0; j < P; ++j)
        if (x + j < dst.width) dst.at(x + j, y) = to_pixel<T, C, /*kClamp=*/false>(sums[j][q]);  // a convex sum
    }
    __syncthreads();  // the next tile row reuses the shared buffers
  }
}

// Calls f(std::integral_constant<int, radius>) for the radii with a kernel of their
// own (the common mask sizes 3x3 to 9x9), f(std::integral_constant<int, 0>) otherwise.
template <class F>
void visit_small_radius(int radius, F&& f) {
  static_assert(Tuning::kMaxUnrolledRadius == 4, "add the cases below");
  switch (radius) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    default: return f(std::integral_constant<int, 0>{});
  }
}

}  // namespace

bool gaussian_tiled_fits(PixelFormat format, int radius) {
  return visit_format(format, [&](auto tag, auto channels) {
    return tiled_shared_bytes<typename decltype(tag)::type, decltype(channels)::value>(radius) <=
           max_shared_memory_per_block();
  });
}

void launch_gaussian_tiled(const ImageView& src, const ImageView& dst, const std::vector<float>& weights,
                           const Border& border, const ExecContext& ctx) {
  const int radius = static_cast<int>(weights.size()) / 2;
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    Pixel<T, C> constant{};
    for (int c = 0; c < C; ++c) constant.c[c] = static_cast<T>(border.value[static_cast<std::size_t>(c)]);
    const std::size_t shared_bytes = tiled_shared_bytes<T, C>(radius);
    if (shared_bytes > max_shared_memory_per_block())
      throw Error(ErrorCode::UnsupportedFormat,
                  "blur: the tiled kernel needs " + std::to_string(shared_bytes) + " bytes of shared memory for " +
                      src.format.name() + " at radius " + std::to_string(radius) + "; this GPU allows " +
                      std::to_string(max_shared_memory_per_block()) + " per block");
    const int tile_rows = static_cast<int>(blocks_for(src.height, kTileH));
    const dim3 block(Tuning::kBlockX, Tuning::kBlockY);
    const dim3 grid(grid_x(blocks_for(src.width, tile_width<T, C>()), "gaussian_tiled_kernel"), grid_y(tile_rows));
    visit_border(border.mode, [&](auto policy) {
      visit_small_radius(radius, [&](auto compile_time_radius) {
        auto kernel = gaussian_tiled_kernel<T, C, decltype(policy), decltype(compile_time_radius)::value>;
        // Large radii need more than the default 48 KiB of shared memory per block.
        GPUFILTER_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                  static_cast<int>(shared_bytes)));
        mask_slots().with_slot(weights, ctx.stream, [&](int slot) {
          kernel<<<grid, block, shared_bytes, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), radius, slot,
                                                            constant, tile_rows);
          check_launch("gaussian_tiled_kernel", ctx);
        });
      });
    });
  });
}

}  // namespace gpufilter::kernels
