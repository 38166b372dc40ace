#pragma once
// The separable strip kernel (separable_strip.cuh): one rank-1 mask on 1- and 4-channel
// images of any channel type and on 8-bit RGB, radii up to SeparableStripTuning::
// kMaxRadius, in float with the vertical pass first; 8-bit gray and RGB on byte columns
// (separable_strip_bytes.cuh).
// src and dst are validated device views of equal size and format that do not overlap;
// `border.value` is representable in the pixel type.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// One rank-1 mask (Linear or Unsharp output) of radius up to kMaxRadius in x and y on a
// 1- or 4-channel image (of 8 bytes a pixel or more from kWidePixelMinRadius on, float
// gray from kFloatGrayMinRadius) or an 8-bit RGB one, whose step of shared sums fits the
// shared memory one block may use.
bool separable_strip_fits(PixelFormat format, const FilterSpec& spec);

// Whether the strip runs this format on byte columns: 8-bit gray and RGB.
bool strip_runs_on_bytes(PixelFormat format);

// Throws Error(UnsupportedFormat) where separable_strip_fits() is false.
void launch_separable_strip(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx);

// The strip with a thread a pixel column on a 1- or 4-channel image that
// separable_strip_fits() takes, 8-bit gray included (which launch_separable_strip runs
// on byte columns).
void launch_separable_strip_by_pixels(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                      const Border& border, const ExecContext& ctx);

namespace strip {
// One pixel type's kernels (separable_strip_<type>.cu), for launch_separable_strip.
template <class T>
void launch_typed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx);
// 8-bit gray and RGB on byte columns (separable_strip_bytes.cu).
void launch_bytes(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx);
}  // namespace strip

}  // namespace gpufilter::kernels
