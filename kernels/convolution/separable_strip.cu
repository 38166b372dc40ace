// Which specs the separable strip kernel runs, and its launch by pixel type.
#include <algorithm>
#include <cstdint>
#include <string>

#include "common/device_limits.hpp"
#include "common/dispatch.cuh"
#include "convolution/separable_strip_imma_launch.hpp"
#include "convolution/separable_strip_launch.hpp"
#include "convolution/separable_strip_tuning.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::kernels {

namespace {

// One rank-1 mask with a Linear or Unsharp output, of a compiled radius (0 where none).
int strip_radius(const FilterSpec& spec) {
  if (!spec.is_separable() || spec.masks.size() != 1 || spec.output == FilterOutput::Magnitude) return 0;
  return SeparableStripTuning::compiled_radius(std::max(spec.width(), spec.height()) / 2);
}

// A 1- or 4-channel image whose step of sums (a float a channel: Accum<1> or Accum<4>),
// and of staged output pixels where `staged`, fits the shared memory one block may use,
// at a compiled radius (strip::shared_bytes).
bool pixel_columns_fit(PixelFormat format, const FilterSpec& spec, bool staged) {
  const int compiled = strip_radius(spec);
  if (compiled == 0 || (format.channels != 1 && format.channels != 4)) return false;
  const std::size_t staged_bytes = staged ? SeparableStripTuning::staged_bytes(compiled, format.pixel_bytes()) : 0;
  return SeparableStripTuning::shared_bytes(compiled, sizeof(float) * format.channels) + staged_bytes <=
         max_shared_memory_per_block();
}

}  // namespace

bool separable_strip_fits(PixelFormat format, const FilterSpec& spec) {
  return strip_runs_on_elements(format, spec) ? separable_strip_elements_fit(format, spec)
                                              : separable_strip_pixels_fit(format, spec);
}

bool separable_strip_pixels_fit(PixelFormat format, const FilterSpec& spec) {
  const int radius = std::max(spec.width(), spec.height()) / 2;
  // The radii where pixel columns lost to the tiled kernel.
  return SeparableStripTuning::runs(format.channel_bytes(), format.channels, radius) &&
         pixel_columns_fit(format, spec, SeparableStripTuning::stages_stores(format.channel_bytes(), format.channels));
}

bool separable_strip_staged_fit(PixelFormat format, const FilterSpec& spec) {
  return format.channels == 4 && pixel_columns_fit(format, spec, /*staged=*/true);
}

bool separable_strip_elements_fit(PixelFormat format, const FilterSpec& spec) {
  const int compiled = strip_radius(spec);
  if (compiled == 0 || (format.channels != 1 && format.channels != 3)) return false;
  // A sum is a float an element; the staged output an element.
  return SeparableStripTuning::element_shared_bytes(format.channels, compiled, format.channel_bytes()) <=
         max_shared_memory_per_block();
}

bool strip_runs_on_elements(PixelFormat format, const FilterSpec& spec) {
  return SeparableStripTuning::elements_run(format.channel_bytes(), format.channels,
                                            spec.output == FilterOutput::Unsharp);
}

void launch_separable_strip(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx) {
  if (!separable_strip_fits(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat,
                "separable_strip: runs one rank-1 mask (Linear or Unsharp output) of radius up to " +
                    std::to_string(SeparableStripTuning::kMaxRadius) + " on 1-, 3- and 4-channel images");
  if (separable_strip_imma_takes(src.format, spec))  // 8 bits: RGBA from radius 4 (separate alpha 3), gray 1, RGB 5
    launch_separable_strip_imma(src, dst, spec, border, ctx);
  else if (strip_runs_on_elements(src.format, spec))
    launch_separable_strip_by_elements(src, dst, spec, border, ctx);
  else
    launch_separable_strip_by_pixels(src, dst, spec, border, ctx);
}

void launch_separable_strip_by_pixels(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                      const Border& border, const ExecContext& ctx) {
  visit_channel_type(src.format, [&](auto tag) {
    strip::launch_typed<typename decltype(tag)::type>(src, dst, spec, border, ctx);
  });
}

void launch_separable_strip_staged(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                   const Border& border, const ExecContext& ctx) {
  if (!separable_strip_staged_fit(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat, "separable_strip_staged: runs one rank-1 mask of radius up to " +
                                                  std::to_string(SeparableStripTuning::kMaxRadius) + " on RGBA");
  visit_channel_type(src.format, [&](auto tag) {
    using T = typename decltype(tag)::type;
    // The library's own strip is the same staged kernel on RGBA of 16 and 32 bits.
    if constexpr (SeparableStripTuning::stages_stores(sizeof(T), 4))
      strip::launch_typed<T>(src, dst, spec, border, ctx);
    else
      strip::launch_typed_staged<T>(src, dst, spec, border, ctx);
  });
}

}  // namespace gpufilter::kernels
