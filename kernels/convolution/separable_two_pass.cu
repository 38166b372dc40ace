// The separable filter for any radius (large sigma): a row pass from the image into a
// float image, then a column pass from that into the output. Its cost grows with the
// radius (2(2r+1) taps per pixel instead of (2r+1)^2), and both passes read their
// neighbours through L1/L2: at large radii a shared-memory tile with its halo would not
// fit, and consecutive threads read consecutive pixels, so every access is coalesced.
// The factors sit in __constant__ memory: all threads of a warp read the same tap.
#include <algorithm>

#include "common/border_runtime.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/stream_buffer.hpp"
#include "convolution/filter2d_output.cuh"
#include "convolution/mask_slots.hpp"
#include "convolution/separable_launch.hpp"
#include "convolution/separable_tuning.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = SeparableTuning;

// Slot s holds the x factor at [0, kMaxTaps) and the y factor after it.
__constant__ float c_two_pass_factors[Tuning::kTwoPassSlots][2 * Tuning::kMaxTaps];

MaskSlots& mask_slots() {
  static MaskSlots slots(Tuning::kTwoPassSlots, 2 * Tuning::kMaxTaps,
                         [](int slot, const float* weights, int count, cudaStream_t stream) {
                           GPUFILTER_CUDA_CHECK(cudaMemcpyToSymbolAsync(
                               c_two_pass_factors, weights, sizeof(float) * static_cast<std::size_t>(count),
                               sizeof(float) * static_cast<std::size_t>(slot) * 2 * Tuning::kMaxTaps,
                               cudaMemcpyHostToDevice, stream));
                         });
  return slots;
}

// Row pass: rows[y][x] = sum_i x_factor[i] * input(x + i - rx, y), premultiplied. Blocks
// whose columns reach past the image's left or right edge test every tap and map those
// outside through the border mode; the others read without a test.
template <class T, int C>
__global__ void separable_rows_kernel(PitchedView<T, C> src, Accum<C>* rows, int rx, int slot, BorderMode mode,
                                      Pixel<T, C> constant, Filter2dOutput out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= src.width) return;
  const float* mask = c_two_pass_factors[slot];
  const int x0 = static_cast<int>(blockIdx.x) * Tuning::kTwoPassBlockX;
  const bool interior = x0 - rx >= 0 && x0 + Tuning::kTwoPassBlockX + rx <= src.width;
  for (long long row = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; row < src.height;
       row += static_cast<long long>(gridDim.y) * blockDim.y) {
    const int y = static_cast<int>(row);
    Accum<C> sum = zero_accum<C>();
    if (interior) {
      for (int i = -rx; i <= rx; ++i) accumulate(sum, mask[i + rx], input_value(src.at(x + i, y), out));
    } else {
      for (int i = -rx; i <= rx; ++i)
        accumulate(sum, mask[i + rx], input_value(load_bordered(src, x + i, y, mode, constant), out));
    }
    rows[static_cast<std::size_t>(y) * static_cast<std::size_t>(src.width) + static_cast<std::size_t>(x)] = sum;
  }
}

// Column pass: out(x, y) = rule(sum_j y_factor[j] * rows[y + j - ry][x]). Blocks whose
// rows reach past the image's top or bottom test every tap: a row outside the image reads
// through the border mode; under Constant it is the constant pixel's row sum, `outside`.
template <class T, int C>
__global__ void separable_columns_kernel(PitchedView<T, C> src, const Accum<C>* rows, PitchedView<T, C> dst, int ry,
                                         int slot, BorderMode mode, Accum<C> outside, Filter2dOutput out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= src.width) return;
  const float* mask = c_two_pass_factors[slot] + Tuning::kMaxTaps;
  const bool needs_centre = out.rule == FilterOutput::Unsharp || out.keep_alpha;
  for (long long row = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; row < src.height;
       row += static_cast<long long>(gridDim.y) * blockDim.y) {
    const int y = static_cast<int>(row);
    const int y0 = y - static_cast<int>(threadIdx.y);  // the block's first row (uniform)
    const bool interior = y0 - ry >= 0 && y0 + Tuning::kTwoPassBlockY + ry <= src.height;
    Accum<C> sum = zero_accum<C>();
    if (interior) {
      for (int j = -ry; j <= ry; ++j)
        accumulate(sum, mask[j + ry], rows[static_cast<std::size_t>(y + j) * static_cast<std::size_t>(src.width) + x]);
    } else {
      for (int j = -ry; j <= ry; ++j) {
        const int sy = y + j;
        if (sy >= 0 && sy < src.height) {
          accumulate(sum, mask[j + ry], rows[static_cast<std::size_t>(sy) * static_cast<std::size_t>(src.width) + x]);
        } else if (mode == BorderMode::Constant) {
          accumulate(sum, mask[j + ry], outside);
        } else {
          const int from = border_map(sy, src.height, mode);
          accumulate(sum, mask[j + ry], rows[static_cast<std::size_t>(from) * static_cast<std::size_t>(src.width) + x]);
        }
      }
    }
    const Accum<C> centre = needs_centre ? input_value(src.at(x, y), out) : zero_accum<C>();
    const Accum<C> sums[1] = {sum};
    dst.at(x, y) = filter2d_pixel<T, C, 1>(sums, centre, out);
  }
}

}  // namespace

void launch_separable_two_pass(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                               const Border& border, const ExecContext& ctx) {
  if (!spec.is_separable() || spec.masks.size() != 1 || spec.width() > Tuning::kMaxTaps ||
      spec.height() > Tuning::kMaxTaps)
    throw Error(ErrorCode::InvalidArgument, "separable: the two-pass kernel takes one rank-1 mask of up to " +
                                                std::to_string(Tuning::kMaxTaps) + " taps each way");
  const SeparableMask& factors = spec.separable[0];
  const int rx = spec.width() / 2, ry = spec.height() / 2;
  std::vector<float> weights(static_cast<std::size_t>(Tuning::kMaxTaps) + factors.y.size(), 0.0f);
  std::copy(factors.x.begin(), factors.x.end(), weights.begin());
  std::copy(factors.y.begin(), factors.y.end(), weights.begin() + Tuning::kMaxTaps);
  double sum_x = 0.0;
  for (float w : factors.x) sum_x += w;

  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const Pixel<T, C> constant = constant_pixel<T, C>(border);
    const Filter2dOutput out = make_filter2d_output<T, C>(spec);
    // The row sum of a row outside the image under Constant: the constant pixel
    // (premultiplied as the kernels would) times the x factor's sum.
    Accum<C> outside{};
    for (int c = 0; c < C; ++c) {
      double v = static_cast<double>(constant.c[c]);
      if (out.premultiply && c < 3) v *= static_cast<double>(constant.c[3]) / out.max_value;
      outside.c[c] = static_cast<float>(v * sum_x);
    }
    const StreamBuffer rows(sizeof(Accum<C>) * static_cast<std::size_t>(src.width) * static_cast<std::size_t>(src.height),
                            ctx.stream);
    auto* row_sums = rows.get<Accum<C>>();
    const dim3 block(Tuning::kTwoPassBlockX, Tuning::kTwoPassBlockY);
    const dim3 grid(grid_x(blocks_for(src.width, Tuning::kTwoPassBlockX), "separable_rows_kernel"),
                    grid_y(blocks_for(src.height, Tuning::kTwoPassBlockY)));
    mask_slots().with_slot(weights, ctx.stream, [&](int slot) {
      separable_rows_kernel<T, C><<<grid, block, 0, ctx.stream>>>(pitched<T, C>(src), row_sums, rx, slot, border.mode,
                                                                  constant, out);
      check_launch("separable_rows_kernel", ctx);
      separable_columns_kernel<T, C><<<grid, block, 0, ctx.stream>>>(pitched<T, C>(src), row_sums, pitched<T, C>(dst),
                                                                     ry, slot, border.mode, outside, out);
      check_launch("separable_columns_kernel", ctx);
    });
  });
}

}  // namespace gpufilter::kernels
