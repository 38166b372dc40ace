// The separable tiled filter (seed 004, "tiling with halo in shared memory", with the
// mask's factors in __constant__ memory). Each block owns an output tile (32*P x 32
// pixels, P pixels per thread in x, 4 rows per thread in y):
//   1. it loads the tile plus the halo (rx pixels left and right, ry above and below)
//      into shared memory, once, applying the border policy only in blocks that touch
//      the image edge;
//   2. it filters the rows of that input tile with the x factor into a float buffer;
//   3. it filters that buffer's columns with the y factor and writes the output tile
//      through the filter's output rule (filter2d_output.cuh).
// Passes 2 and 3 keep sliding windows in registers, so each shared value is read
// once per thread. A 2-D mask of (2r+1)^2 taps costs 2(2r+1) here.
// Every warp reads the same mask tap at the same time: a constant-cache broadcast.
#include <algorithm>
#include <type_traits>

#include "common/border.cuh"
#include "common/device_limits.hpp"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "convolution/filter2d_output.cuh"
#include "convolution/mask_slots.hpp"
#include "convolution/separable_launch.hpp"
#include "convolution/separable_tuning.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = SeparableTuning;

// Slot s holds the x factor at [0, kMaxTiledTaps) and the y factor after it.
__constant__ float c_factors[Tuning::kMaskSlots][2 * Tuning::kMaxTiledTaps];

MaskSlots& mask_slots() {
  static MaskSlots slots(Tuning::kMaskSlots, 2 * Tuning::kMaxTiledTaps,
                         [](int slot, const float* weights, int count, cudaStream_t stream) {
                           GPUFILTER_CUDA_CHECK(cudaMemcpyToSymbolAsync(
                               c_factors, weights, sizeof(float) * static_cast<std::size_t>(count),
                               sizeof(float) * static_cast<std::size_t>(slot) * 2 * Tuning::kMaxTiledTaps,
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

// Pixels whose size is not a multiple of 4 bytes (u8x1, u8x3, u16x1, u16x3) would load
// a byte or a half-word at a time: interior tiles load them as 32-bit words instead, and
// each shared row keeps the row's misalignment (0 to 3 bytes) in front of its pixels.
template <class T, int C>
constexpr bool kWordLoads = sizeof(Pixel<T, C>) % 4 != 0;

// Bytes from one shared tile row to the next.
template <class T, int C>
__host__ __device__ constexpr int tile_row_bytes(int in_w) {
  const int bytes = in_w * static_cast<int>(sizeof(Pixel<T, C>));
  return kWordLoads<T, C> ? (bytes + 8 + 15) / 16 * 16 : bytes;  // room for the misalignment
}

template <class T, int C>
std::size_t tiled_shared_bytes(int rx, int ry) {
  const std::size_t in_w = tile_width<T, C>() + 2 * rx, in_h = kTileH + 2 * ry;
  return align16(static_cast<std::size_t>(tile_row_bytes<T, C>(static_cast<int>(in_w))) * in_h) +
         in_h * tile_width<T, C>() * sizeof(Accum<C>);
}

// Stores a thread's P adjacent output pixels: as 32-bit words where the pixels are
// narrower than a word, the P of them fill whole words, the address is aligned and all
// lie in the image; one pixel at a time otherwise.
template <class T, int C, int P>
__device__ __forceinline__ void store_pixels(PitchedView<T, C>& dst, int x, int y, const Pixel<T, C> (&px)[P]) {
  constexpr int kBytes = P * static_cast<int>(sizeof(Pixel<T, C>));
  if constexpr (kWordLoads<T, C> && kBytes % 4 == 0) {
    unsigned char* address = reinterpret_cast<unsigned char*>(&dst.at(x, y));
    if (x + P <= dst.width && (reinterpret_cast<std::size_t>(address) & 3) == 0) {
      unsigned words[kBytes / 4];
      memcpy(words, px, kBytes);  // registers only: a byte shuffle, no memory
#pragma unroll
      for (int w = 0; w < kBytes / 4; ++w) reinterpret_cast<unsigned*>(address)[w] = words[w];
      return;
    }
  }
#pragma unroll
  for (int j = 0; j < P; ++j)
    if (x + j < dst.width) dst.at(x + j, y) = px[j];
}

// kRadius > 0: both radii are this compile-time constant, every loop unrolls fully and
// the taps become immediate operands; kRadius == 0: the runtime radii are used.
// kPlain: a convex mask, the Linear rule with no bias, no alpha handling (blur and box
// on separate channels): inputs convert without the alpha test and outputs need no
// clamp or output rule, which 8-bit filters, bound by instructions, feel.
template <class T, int C, class B, int kRadius, bool kPlain>
__global__ void __launch_bounds__(Tuning::kBlockX * Tuning::kBlockY)
    separable_tiled_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, int runtime_rx, int runtime_ry, int slot,
                           Pixel<T, C> constant, int tile_rows, Filter2dOutput out) {
  const int rx = kRadius > 0 ? kRadius : runtime_rx;
  const int ry = kRadius > 0 ? kRadius : runtime_ry;
  constexpr int P = Tuning::pixels_per_thread(sizeof(T) * C);
  constexpr int kTileW = tile_width<T, C>();
  extern __shared__ __align__(16) unsigned char shared[];
  const int in_w = kTileW + 2 * rx;
  const int in_h = kTileH + 2 * ry;
  // tile: the input pixels, as stored, row_bytes apart. rows: the horizontal pass's
  // sums, laid out [input row][j][thread x] so that for each of a thread's P columns j
  // the warp touches consecutive words (no bank conflicts).
  const int row_bytes = tile_row_bytes<T, C>(in_w);
  unsigned char* tile = shared;
  auto* rows = reinterpret_cast<Accum<C>*>(shared + align16(static_cast<std::size_t>(row_bytes) * in_h));
  const float* mask_x = c_factors[slot];
  const float* mask_y = c_factors[slot] + Tuning::kMaxTiledTaps;
  const int taps_x = 2 * rx + 1, taps_y = 2 * ry + 1;
  const int tx = static_cast<int>(threadIdx.x);

  // gridDim.y is at most 65535: a block takes every gridDim.y-th row of tiles.
  for (int tile_y = static_cast<int>(blockIdx.y); tile_y < tile_rows; tile_y += static_cast<int>(gridDim.y)) {
    const int x0 = static_cast<int>(blockIdx.x) * kTileW - rx;
    const int y0 = tile_y * kTileH - ry;
    const bool interior = x0 >= 0 && y0 >= 0 && x0 + in_w <= src.width && y0 + in_h <= src.height;
    // Word loads read up to 3 bytes either side of the tile's rows: only where those
    // bytes are pixels of the image.
    const bool word_loads = kWordLoads<T, C> && interior && x0 >= 3 && x0 + in_w + 3 <= src.width;
    // Where pixel (x0, y0 + ty) starts within its 32-bit word (0 unless word_loads).
    const auto misalignment = [&](int ty) {
      return word_loads ? static_cast<int>(reinterpret_cast<std::size_t>(&src.at(x0, y0 + ty)) & 3) : 0;
    };

    // 1. tile + halo -> shared memory; only edge blocks pay for the border policy.
    //    Each thread issues kLoadBatch independent loads before storing any, so enough
    //    bytes are in flight to cover DRAM latency.
    constexpr int kBatch = Tuning::kLoadBatch;
    if (word_loads) {
      // A row's pixels span at most this many words; a word past the row's last byte
      // (where the row starts early in its word) is not read.
      const int pixel_bytes = in_w * static_cast<int>(sizeof(Pixel<T, C>));
      const int words = (pixel_bytes + 3 + 3) / 4;
      for (int w = tx; w < words; w += Tuning::kBlockX)
        for (int ty0 = static_cast<int>(threadIdx.y); ty0 < in_h; ty0 += Tuning::kBlockY * kBatch) {
          unsigned values[kBatch];
#pragma unroll
          for (int u = 0; u < kBatch; ++u) {
            const int ty = ty0 + u * Tuning::kBlockY;
            if (ty < in_h && 4 * w < misalignment(ty) + pixel_bytes) {
              const auto* first = reinterpret_cast<const unsigned char*>(&src.at(x0, y0 + ty)) - misalignment(ty);
              values[u] = __ldg(reinterpret_cast<const unsigned*>(first) + w);
            }
          }
#pragma unroll
          for (int u = 0; u < kBatch; ++u) {
            const int ty = ty0 + u * Tuning::kBlockY;
            if (ty < in_h && 4 * w < misalignment(ty) + pixel_bytes)
              reinterpret_cast<unsigned*>(tile + ty * row_bytes)[w] = values[u];
          }
        }
    } else {
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
            if (ty < in_h) reinterpret_cast<Pixel<T, C>*>(tile + ty * row_bytes)[ix] = values[u];
          }
        }
    }
    __syncthreads();
    // The pixels of shared row ty, whichever way they were loaded.
    const auto tile_row = [&](int ty) {
      return reinterpret_cast<const Pixel<T, C>*>(tile + ty * row_bytes + misalignment(ty));
    };

    // 2. horizontal pass: a thread's P adjacent outputs of one row slide over P + 2rx
    //    input pixels, each read (converted to float, premultiplied) once.
    for (int ty = static_cast<int>(threadIdx.y); ty < in_h; ty += Tuning::kBlockY) {
      Accum<C> sums[P];
#pragma unroll
      for (int j = 0; j < P; ++j) sums[j] = zero_accum<C>();
      const Pixel<T, C>* in = tile_row(ty) + tx * P;
#pragma unroll
      for (int i = 0; i < P + 2 * rx; ++i) {
        // Converted once, used by up to P outputs.
        const Accum<C> value = kPlain ? to_accum(in[i]) : input_value(in[i], out);
#pragma unroll
        for (int j = 0; j < P; ++j) {
          const int k = i - j;  // the tap input i is for output j
          if (k >= 0 && k < taps_x) accumulate(sums[j], mask_x[k], value);
        }
      }
#pragma unroll
      for (int j = 0; j < P; ++j) rows[(ty * P + j) * Tuning::kBlockX + tx] = sums[j];
    }
    __syncthreads();

    // 3. vertical pass: a thread's kRows consecutive outputs in each of its P columns
    //    slide over kRows + 2ry buffered rows, each read once.
    const int first_row = static_cast<int>(threadIdx.y) * kRows;
    Accum<C> sums[P][kRows];
#pragma unroll
    for (int j = 0; j < P; ++j)
#pragma unroll
      for (int q = 0; q < kRows; ++q) sums[j][q] = zero_accum<C>();
#pragma unroll
    for (int i = 0; i < kRows + 2 * ry; ++i) {
#pragma unroll
      for (int j = 0; j < P; ++j) {
        const Accum<C> value = rows[((first_row + i) * P + j) * Tuning::kBlockX + tx];
#pragma unroll
        for (int q = 0; q < kRows; ++q) {
          const int k = i - q;
          if (k >= 0 && k < taps_y) accumulate(sums[j][q], mask_y[k], value);
        }
      }
    }
    const int x = static_cast<int>(blockIdx.x) * kTileW + tx * P;
    const bool needs_centre = !kPlain && (out.rule == FilterOutput::Unsharp || out.keep_alpha);
#pragma unroll
    for (int q = 0; q < kRows; ++q) {
      const int y = tile_y * kTileH + first_row + q;
      if (y >= dst.height || x >= dst.width) break;
      Pixel<T, C> px[P];
#pragma unroll
      for (int j = 0; j < P; ++j) {
        if constexpr (kPlain) {
          px[j] = to_pixel<T, C, /*kClamp=*/false>(sums[j][q]);  // a convex sum
        } else {
          const Accum<C> centre =
              needs_centre ? input_value(tile_row(first_row + q + ry)[tx * P + j + rx], out) : zero_accum<C>();
          const Accum<C> pixel_sums[1] = {sums[j][q]};
          px[j] = filter2d_pixel<T, C, 1>(pixel_sums, centre, out);
        }
      }
      store_pixels<T, C, P>(dst, x, y, px);
    }
    __syncthreads();  // the next tile row reuses the shared buffers
  }
}

// Calls f(std::integral_constant<int, radius>) for the radii with a kernel of their
// own (the common mask sizes 3x3 to 9x9), f(std::integral_constant<int, 0>) otherwise.
template <class F>
void visit_small_radius(int rx, int ry, F&& f) {
  static_assert(Tuning::kMaxUnrolledRadius == 4, "add the cases below");
  if (rx == ry) switch (rx) {
      case 1: return f(std::integral_constant<int, 1>{});
      case 2: return f(std::integral_constant<int, 2>{});
      case 3: return f(std::integral_constant<int, 3>{});
      case 4: return f(std::integral_constant<int, 4>{});
      default: break;
    }
  return f(std::integral_constant<int, 0>{});
}

// Calls f(std::bool_constant<b>) for a runtime bool.
template <class F>
void visit_bool(bool b, F&& f) {
  if (b) f(std::true_type{});
  else f(std::false_type{});
}

}  // namespace

bool separable_tiled_fits(PixelFormat format, const FilterSpec& spec) {
  if (!spec.is_separable() || spec.masks.size() != 1) return false;
  const int rx = spec.width() / 2, ry = spec.height() / 2;
  if (rx > Tuning::kMaxTiledRadius || ry > Tuning::kMaxTiledRadius) return false;
  return visit_format(format, [&](auto tag, auto channels) {
    return tiled_shared_bytes<typename decltype(tag)::type, decltype(channels)::value>(rx, ry) <=
           max_shared_memory_per_block();
  });
}

void launch_separable_tiled(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx) {
  if (!separable_tiled_fits(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat,
                "separable: this filter (" + std::to_string(spec.width()) + "x" + std::to_string(spec.height()) +
                    ", " + std::to_string(spec.masks.size()) + " mask(s), " +
                    (spec.is_separable() ? "rank 1" : "not rank 1") + ") does not fit the tiled separable kernel: " +
                    "one rank-1 mask of radius up to " + std::to_string(Tuning::kMaxTiledRadius) +
                    " whose tile fits the " + std::to_string(max_shared_memory_per_block()) +
                    " bytes of shared memory a block may use");
  const int rx = spec.width() / 2, ry = spec.height() / 2;
  // Both factors in one slot: x at [0, taps_x), y at [kMaxTiledTaps, kMaxTiledTaps + taps_y).
  std::vector<float> factors(static_cast<std::size_t>(Tuning::kMaxTiledTaps) + spec.separable[0].y.size(), 0.0f);
  std::copy(spec.separable[0].x.begin(), spec.separable[0].x.end(), factors.begin());
  std::copy(spec.separable[0].y.begin(), spec.separable[0].y.end(), factors.begin() + Tuning::kMaxTiledTaps);
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const Pixel<T, C> constant = constant_pixel<T, C>(border);
    const Filter2dOutput out = make_filter2d_output<T, C>(spec);
    const std::size_t shared_bytes = tiled_shared_bytes<T, C>(rx, ry);
    const int tile_rows = static_cast<int>(blocks_for(src.height, kTileH));
    const dim3 block(Tuning::kBlockX, Tuning::kBlockY);
    const dim3 grid(grid_x(blocks_for(src.width, tile_width<T, C>()), "separable_tiled_kernel"), grid_y(tile_rows));
    const bool plain = spec.convex && spec.output == FilterOutput::Linear && spec.bias == 0.0 &&
                       !out.premultiply && !out.keep_alpha;
    visit_border(border.mode, [&](auto policy) {
      visit_small_radius(rx, ry, [&](auto compile_time_radius) {
        visit_bool(plain, [&](auto kPlain) {
          auto kernel = separable_tiled_kernel<T, C, decltype(policy), decltype(compile_time_radius)::value,
                                               decltype(kPlain)::value>;
          // Large radii need more than the default 48 KiB of shared memory per block.
          allow_dynamic_shared(reinterpret_cast<const void*>(kernel), shared_bytes);
          mask_slots().with_slot(factors, ctx.stream, [&](int slot) {
            kernel<<<grid, block, shared_bytes, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), rx, ry, slot,
                                                              constant, tile_rows, out);
            check_launch("separable_tiled_kernel", ctx);
          });
        });
      });
    });
  });
}

}  // namespace gpufilter::kernels
