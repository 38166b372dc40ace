// Which specs the separable strip kernel runs, and its launch by pixel type.
#include <algorithm>
#include <cstdint>
#include <string>

#include "common/device_limits.hpp"
#include "common/dispatch.cuh"
#include "convolution/separable_strip_launch.hpp"
#include "convolution/separable_strip_tuning.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::kernels {

bool separable_strip_fits(PixelFormat format, const FilterSpec& spec) {
  using Tuning = SeparableStripTuning;
  if (!spec.is_separable() || spec.masks.size() != 1 || spec.output == FilterOutput::Magnitude) return false;
  // Three-channel pixels of 16 and 32 bits are not whole words: their loads, shared sums
  // and stores go a channel at a time, and the tiled kernel (separable_tiled.cu) ran them
  // faster, twice as fast on f32x3 (docs/gpu-results.md, "The default calls"). 8-bit RGB
  // runs on byte columns (separable_strip_bytes.cuh), which do not see pixels.
  const bool bytes = strip_runs_on_bytes(format);
  if (format.channels != 1 && format.channels != 4 && !bytes) return false;
  const int radius = std::max(spec.width(), spec.height()) / 2;
  const int compiled = Tuning::compiled_radius(radius);
  if (compiled == 0 || !Tuning::runs(format.channel_bytes(), format.channels, radius)) return false;
  // A sum is a float a channel (Accum<1> or Accum<4>), or a byte on byte columns.
  const std::size_t shared = bytes ? Tuning::byte_shared_bytes(format.channels, compiled)
                                   : Tuning::shared_bytes(compiled, sizeof(float) * format.channels);
  return shared <= max_shared_memory_per_block();
}

bool strip_runs_on_bytes(PixelFormat format) {
  return format.channel_bytes() == 1 && (format.channels == 1 || format.channels == 3);
}

void launch_separable_strip(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx) {
  if (!separable_strip_fits(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat,
                "separable_strip: runs one rank-1 mask (Linear or Unsharp output) of radius up to " +
                    std::to_string(SeparableStripTuning::kMaxRadius) + " on 1- and 4-channel images and 8-bit RGB");
  if (strip_runs_on_bytes(src.format))
    strip::launch_bytes(src, dst, spec, border, ctx);
  else
    launch_separable_strip_by_pixels(src, dst, spec, border, ctx);
}

void launch_separable_strip_by_pixels(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                      const Border& border, const ExecContext& ctx) {
  visit_channel_type(src.format, [&](auto tag) {
    strip::launch_typed<typename decltype(tag)::type>(src, dst, spec, border, ctx);
  });
}

}  // namespace gpufilter::kernels
