#pragma once
// The separable strip kernel (separable_strip.cuh): one rank-1 mask on 1-, 3- and
// 4-channel images of any channel type, radii up to SeparableStripTuning::kMaxRadius, in
// float with the vertical pass first; RGB and 16- and 32-bit gray on element columns
// (separable_strip_elements.cuh).
// src and dst are validated device views of equal size and format that do not overlap;
// `border.value` is representable in the pixel type.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// One rank-1 mask (Linear or Unsharp output) of radius up to kMaxRadius in x and y, on
// element columns or pixel columns (strip_runs_on_elements), where that kind fits (below).
bool separable_strip_fits(PixelFormat format, const FilterSpec& spec);

// Whether the strip runs this spec on this format on element columns, else on pixel
// columns (SeparableStripTuning::elements_run): RGB and 16- and 32-bit gray, but not
// sharpen's Unsharp output on float.
bool strip_runs_on_elements(PixelFormat format, const FilterSpec& spec);

// Throws Error(UnsupportedFormat) where separable_strip_fits() is false. On 8 bits, RGBA
// from radius 4 (separate alpha from 3), gray from radius 1 and RGB from radius 5, to 24,
// run the vertical pass on the integer tensor cores (separable_strip_imma_takes,
// separable_strip_imma_launch.hpp).
void launch_separable_strip(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx);

// Whether element columns run this spec on this format: one rank-1 mask (Linear or
// Unsharp output) of radius up to kMaxRadius on a 1- or 3-channel image, whose step fits
// the shared memory one block may use.
bool separable_strip_elements_fit(PixelFormat format, const FilterSpec& spec);

// The strip on element columns, where separable_strip_elements_fit(): and in the lab
// 8-bit gray (which launch_separable_strip runs on pixel columns).
void launch_separable_strip_by_elements(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                        const Border& border, const ExecContext& ctx);

// Whether pixel columns run this spec on this format: as above on a 1- or 4-channel
// image, float gray from SeparableStripTuning::kFloatGrayMinRadius on; RGBA of 16 and 32
// bits with staged stores (SeparableStripTuning::stages_stores).
bool separable_strip_pixels_fit(PixelFormat format, const FilterSpec& spec);

// The strip with a thread a pixel column, where separable_strip_pixels_fit(): RGBA, 8-bit
// gray and sharpen on float gray, and in the lab the other gray (which
// launch_separable_strip runs on element columns).
void launch_separable_strip_by_pixels(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                      const Border& border, const ExecContext& ctx);

// Pixel columns with staged stores (separable_strip.cuh, kStaged) on RGBA of every type,
// at every compiled radius where the step's sums fit: the lab's `separable_strip_staged`
// (which the library's strip is on RGBA of 16 and 32 bits).
bool separable_strip_staged_fit(PixelFormat format, const FilterSpec& spec);
void launch_separable_strip_staged(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                   const Border& border, const ExecContext& ctx);

namespace strip {
// One pixel type's kernels (separable_strip_<type>.cu), for launch_separable_strip.
template <class T>
void launch_typed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx);
// RGBA8 with staged stores (separable_strip_staged.cu); launch_typed stages them on the
// wider types.
template <class T>
void launch_typed_staged(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                         const ExecContext& ctx);
// Gray and RGB of type T on element columns (separable_strip_elements_<type>.cu).
template <class T>
void launch_elements(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                     const ExecContext& ctx);
}  // namespace strip

}  // namespace gpufilter::kernels
