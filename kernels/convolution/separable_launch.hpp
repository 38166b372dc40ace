#pragma once
// Launchers for rank-1 filters (FilterSpec::is_separable(), one mask): a row pass with
// the mask's x factor and a column pass with its y factor. src and dst are validated
// device views of equal size and format that do not overlap; `border.value` is
// representable in the pixel type.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// Whether the one-kernel tiled version runs this spec on the current device: one mask,
// radii up to SeparableTuning::kMaxTiledRadius, tile and halo within the shared memory
// one block may use (common/device_limits.hpp).
bool separable_tiled_fits(PixelFormat format, const FilterSpec& spec);

// One kernel: each block loads its tile plus halo into shared memory once, filters its
// rows into a float buffer, then filters that buffer's columns; register sliding
// windows in both passes. Factors in __constant__ memory.
// Throws Error(UnsupportedFormat) where separable_tiled_fits() is false.
void launch_separable_tiled(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx);

// Any radius (large sigma): a row pass into a float image on the stream, then a column
// pass from it. Factors up to SeparableTuning::kMaxTaps each.
void launch_separable_two_pass(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                               const Border& border, const ExecContext& ctx);

}  // namespace gpufilter::kernels
