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

template <int R, bool kPremultiplied, bool kIntegerRows>
void launch_radius(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                   const ExecContext& ctx) {
  constexpr const char* kName = "separable_strip_imma_kernel";
  const auto kernel = strip_imma::separable_strip_imma_kernel<R, kPremultiplied, kIntegerRows>;
  constexpr std::size_t kShared = Tuning::shared_bytes(R, kIntegerRows);
  const StripGrid grid = step_strip_grid(src, Tuning::band(R, kIntegerRows), reinterpret_cast<const void*>(kernel),
                                         Tuning::kThreads, kShared, Tuning::strips(R, kIntegerRows), kName);
  using P = std::uint8_t;
  kernel<<<grid.grid, Tuning::kThreads, kShared, ctx.stream>>>(
      pitched<P, 4>(src), pitched<P, 4>(dst), strip_imma::taps_of<R, kIntegerRows>(spec.separable[0]),
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

// 8-bit gray and RGB: byte columns (separable_strip_imma_bytes.cuh).
bool byte_columns(PixelFormat format) {
  return format.type == ChannelType::U8 && (format.channels == 1 || format.channels == 3);
}

// The kernel's own rules, without the device's limits: RGBA8 in either passes, 8-bit gray
// and RGB with the vertical pass on the tensor cores.
bool spec_fits(PixelFormat format, const FilterSpec& spec, ImmaPasses passes) {
  const bool rgba8 = format.type == ChannelType::U8 && format.channels == 4;
  if (!rgba8 && !(byte_columns(format) && passes == ImmaPasses::Vertical)) return false;
  if (!spec.is_separable() || spec.masks.size() != 1 || spec.output == FilterOutput::Magnitude) return false;
  if (compiled_radius(spec) == 0 || imma_integer_taps(spec.separable[0].y).empty()) return false;
  // Both passes: the horizontal factor in integers too; not under a threshold, which
  // decides each pixel on the blur's exact value (the integer taps of both factors moved
  // it across the threshold where the vertical's alone did not).
  return passes == ImmaPasses::Vertical || (!imma_integer_taps(spec.separable[0].x).empty() &&
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
  if (!spec_fits(format, spec, passes)) return false;
  const int radius = compiled_radius(spec);
  return (byte_columns(format)
              ? Tuning::byte_shared_bytes(format.channels, radius)
              : Tuning::shared_bytes(radius, passes == ImmaPasses::Both)) <= max_shared_memory_per_block();
}

bool separable_strip_imma_runs(PixelFormat format, const FilterSpec& spec, ImmaPasses passes) {
  return separable_strip_imma_fits(format, spec, passes) && cached_compute_major() >= 8;
}

bool separable_strip_imma_preferred(PixelFormat format, const FilterSpec& spec) {
  return spec_fits(format, spec, ImmaPasses::Vertical) &&
         compiled_radius(spec) >= (byte_columns(format)
                                       ? Tuning::byte_library_min_radius(format.channels)
                                       : Tuning::library_min_radius(spec.alpha == AlphaMode::Premultiply));
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
                    " of non-negative taps summing to 1, on RGBA8" +
                    (passes == ImmaPasses::Vertical ? ", 8-bit gray and RGB" : "") + ", on GPUs from sm_80 on");
  if (byte_columns(src.format)) return strip_imma::launch_bytes(src, dst, spec, border, ctx);
  strip_imma::visit_imma_radius(compiled_radius(spec),
                                [&](auto r) { launch_alpha<decltype(r)::value>(src, dst, spec, border, ctx, passes); });
}

}  // namespace gpufilter::kernels
