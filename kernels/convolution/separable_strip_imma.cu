// Which specs the strip kernel with its passes on the integer tensor cores runs, its taps
// and its launch.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "common/device_limits.hpp"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "convolution/separable_strip_imma.cuh"
#include "convolution/separable_strip_imma_launch.hpp"
#include "convolution/step_strip_grid.cuh"
#include "gpufilter/error.hpp"

namespace gpufilter::kernels {

namespace {

using strip_imma::ImmaTaps;
using Tuning = SeparableStripImmaTuning;

int compiled_radius(const FilterSpec& spec) {
  return Tuning::compiled_radius(std::max(spec.width(), spec.height()) / 2);
}

// The horizontal factor in float times 2^-16 (the vertical sums' scale), centred in 2R + 1
// taps; the vertical factor as the lanes' A fragments, and with both passes on the tensor
// cores the horizontal factor's too.
template <int R, bool kIntegerRows>
ImmaTaps<R> taps_of(const SeparableMask& mask) {
  ImmaTaps<R> taps{};
  const int rx = static_cast<int>(mask.x.size()) / 2;
  for (std::size_t i = 0; i < mask.x.size(); ++i)
    taps.x[R - rx + static_cast<int>(i)] = std::ldexp(mask.x[i], -kImmaWeightBits);
  const std::vector<std::uint32_t> qy = imma_integer_taps(mask.y);
  for (int chunk = 0; chunk < Tuning::chunks(R); ++chunk) imma_fragments(qy, R, chunk, taps.a[chunk]);
  if constexpr (kIntegerRows) {
    const std::vector<std::uint32_t> qx = imma_integer_taps(mask.x);
    for (int chunk = 0; chunk < Tuning::chunks(R); ++chunk) imma_fragments(qx, R, chunk, taps.ax[chunk]);
  }
  return taps;
}

template <int R, bool kPremultiplied, bool kIntegerRows>
void launch_radius(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                   const ExecContext& ctx) {
  constexpr const char* kName = "separable_strip_imma_kernel";
  const auto kernel = strip_imma::separable_strip_imma_kernel<R, kPremultiplied, kIntegerRows>;
  constexpr std::size_t kShared = Tuning::shared_bytes(R, kIntegerRows);
  allow_dynamic_shared(reinterpret_cast<const void*>(kernel), kShared);
  const StripGrid grid = step_strip_grid(src, Tuning::band(kIntegerRows), reinterpret_cast<const void*>(kernel),
                                         Tuning::kThreads, kShared, Tuning::kStrips, kName);
  using P = std::uint8_t;
  kernel<<<grid.grid, Tuning::kThreads, kShared, ctx.stream>>>(
      pitched<P, 4>(src), pitched<P, 4>(dst), taps_of<R, kIntegerRows>(spec.separable[0]),
      border_reads(border.mode, src.width, src.height), constant_pixel<P, 4>(border), make_filter2d_output<P, 4>(spec),
      spec.convex, grid.strip_rows);
  check_launch(kName, ctx);
}

template <int R>
void launch_alpha(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx, ImmaPasses passes) {
  const bool premultiplied = spec.alpha == AlphaMode::Premultiply;
  if (passes == ImmaPasses::Both) {
    if (premultiplied) launch_radius<R, true, true>(src, dst, spec, border, ctx);
    else launch_radius<R, false, true>(src, dst, spec, border, ctx);
  } else {
    if (premultiplied) launch_radius<R, true, false>(src, dst, spec, border, ctx);
    else launch_radius<R, false, false>(src, dst, spec, border, ctx);
  }
}

// The kernel's own rules, without the device's limits.
bool spec_fits(PixelFormat format, const FilterSpec& spec, ImmaPasses passes) {
  if (format.type != ChannelType::U8 || format.channels != 4) return false;
  if (!spec.is_separable() || spec.masks.size() != 1 || spec.output == FilterOutput::Magnitude) return false;
  if (compiled_radius(spec) == 0 || imma_integer_taps(spec.separable[0].y).empty()) return false;
  // Both passes: the horizontal factor in integers too; not under a threshold, which
  // decides each pixel on the blur's exact value (the integer taps of both factors moved
  // it across the threshold where the vertical's alone did not).
  return passes == ImmaPasses::Vertical ||
         (!imma_integer_taps(spec.separable[0].x).empty() &&
          !(spec.output == FilterOutput::Unsharp && spec.threshold > 0.0));
}

// The passes the library runs this spec in: its radius's (Tuning::library_passes), the
// vertical where both do not fit.
ImmaPasses library_passes(PixelFormat format, const FilterSpec& spec) {
  const ImmaPasses passes = Tuning::library_passes(compiled_radius(spec));
  return spec_fits(format, spec, passes) ? passes : ImmaPasses::Vertical;
}

}  // namespace

bool separable_strip_imma_fits(PixelFormat format, const FilterSpec& spec, ImmaPasses passes) {
  return spec_fits(format, spec, passes) &&
         Tuning::shared_bytes(compiled_radius(spec), passes == ImmaPasses::Both) <= max_shared_memory_per_block();
}

bool separable_strip_imma_runs(PixelFormat format, const FilterSpec& spec, ImmaPasses passes) {
  return separable_strip_imma_fits(format, spec, passes) && cached_compute_major() >= 8;
}

bool separable_strip_imma_preferred(PixelFormat format, const FilterSpec& spec) {
  return spec_fits(format, spec, ImmaPasses::Vertical) && compiled_radius(spec) >= Tuning::kLibraryMinRadius;
}

bool separable_strip_imma_takes(PixelFormat format, const FilterSpec& spec) {
  return separable_strip_imma_preferred(format, spec) &&
         separable_strip_imma_runs(format, spec, library_passes(format, spec));
}

void launch_separable_strip_imma(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                 const Border& border, const ExecContext& ctx) {
  launch_separable_strip_imma(src, dst, spec, border, ctx, library_passes(src.format, spec));
}

void launch_separable_strip_imma(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                 const Border& border, const ExecContext& ctx, ImmaPasses passes) {
  if (!separable_strip_imma_runs(src.format, spec, passes))
    throw Error(ErrorCode::UnsupportedFormat,
                "separable_strip_imma: runs one rank-1 mask (Linear or Unsharp output) of radius up to " +
                    std::to_string(Tuning::kMaxRadius) + " with a vertical factor" +
                    (passes == ImmaPasses::Both ? " and a horizontal factor" : "") +
                    " of non-negative taps summing to 1, on RGBA8, on GPUs from sm_80 on");
  switch (compiled_radius(spec)) {  // one case a radius of Tuning::kCompiledRadii
    case 1: return launch_alpha<1>(src, dst, spec, border, ctx, passes);
    case 2: return launch_alpha<2>(src, dst, spec, border, ctx, passes);
    case 3: return launch_alpha<3>(src, dst, spec, border, ctx, passes);
    case 4: return launch_alpha<4>(src, dst, spec, border, ctx, passes);
    case 5: return launch_alpha<5>(src, dst, spec, border, ctx, passes);
    case 6: return launch_alpha<6>(src, dst, spec, border, ctx, passes);
    case 8: return launch_alpha<8>(src, dst, spec, border, ctx, passes);
    case 10: return launch_alpha<10>(src, dst, spec, border, ctx, passes);
    case 12: return launch_alpha<12>(src, dst, spec, border, ctx, passes);
    case 16: return launch_alpha<16>(src, dst, spec, border, ctx, passes);
    default: return launch_alpha<24>(src, dst, spec, border, ctx, passes);
  }
}

}  // namespace gpufilter::kernels
