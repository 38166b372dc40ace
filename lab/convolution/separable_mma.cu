// Which specs the tensor-core separable kernel runs, and its launch.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "common/device_limits.hpp"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "gpufilter/error.hpp"
#include "lab/convolution/separable_mma.cuh"
#include "lab/convolution/separable_mma_launch.hpp"

namespace gpufilter::lab {

namespace {

using mma::Tuning;
using namespace kernels;  // the library's launch helpers and output rule

template <int C, bool kPremultiplied>
void launch_channels(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                     const ExecContext& ctx) {
  constexpr const char* kName = "separable_mma_kernel";
  const auto kernel = mma::separable_mma_kernel<C, kPremultiplied>;
  constexpr std::size_t kShared = Tuning::shared_bytes(C, kPremultiplied, Tuning::kKSteps);
  allow_dynamic_shared(reinterpret_cast<const void*>(kernel), kShared);
  const dim3 grid(grid_x(blocks_for(src.width, Tuning::kBand), kName),
                  grid_y(blocks_for(src.height, Tuning::kStepRows * Tuning::kStepsPerStrip)));
  using P = std::uint8_t;
  kernel<<<grid, Tuning::kThreads, kShared, ctx.stream>>>(
      pitched<P, C>(src), pitched<P, C>(dst), strip::taps_of<mma::kHalo>(spec.separable[0]),
      border_reads(border.mode, src.width, src.height), constant_pixel<P, C>(border), make_filter2d_output<P, C>(spec),
      spec.convex);
  check_launch(kName, ctx);
}

}  // namespace

bool separable_mma_fits(PixelFormat format, const FilterSpec& spec) {
  const int channels = format.channels;
  if (format.type != ChannelType::U8 || (channels != 1 && channels != 3 && channels != 4)) return false;
  if (!spec.is_separable() || spec.masks.size() != 1 || spec.output == FilterOutput::Magnitude) return false;
  if (std::max(spec.width(), spec.height()) / 2 > Tuning::kMaxRadius) return false;
  double abs_sum = 0.0;
  for (float t : spec.separable[0].y) abs_sum += std::fabs(t);
  if (abs_sum > Tuning::kMaxAbsTapSum) return false;
  const bool premultiplied = channels == 4 && spec.alpha == AlphaMode::Premultiply;
  return Tuning::shared_bytes(channels, premultiplied, Tuning::kKSteps) <= max_shared_memory_per_block();
}

bool separable_mma_runs(PixelFormat format, const FilterSpec& spec) {
  return separable_mma_fits(format, spec) && cached_compute_major() >= 8;
}

void launch_separable_mma(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                          const ExecContext& ctx) {
  if (!separable_mma_runs(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat,
                "separable_mma: runs one rank-1 mask (Linear or Unsharp output) of radius up to " +
                    std::to_string(Tuning::kMaxRadius) + " on 8-bit gray, RGB and RGBA, on GPUs from sm_80 on");
  switch (src.format.channels) {
    case 1: return launch_channels<1, false>(src, dst, spec, border, ctx);
    case 3: return launch_channels<3, false>(src, dst, spec, border, ctx);
    default: break;
  }
  if (spec.alpha == AlphaMode::Premultiply) return launch_channels<4, true>(src, dst, spec, border, ctx);
  launch_channels<4, false>(src, dst, spec, border, ctx);
}

}  // namespace gpufilter::lab
