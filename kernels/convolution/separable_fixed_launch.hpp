#pragma once
// Launchers for the 8-bit integer kernels. src and dst are validated device views of
// equal size and format that do not overlap; `border.value` is representable in u8.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// The launch shapes of both kernels (SeparableFixedTuning): Tuned is the default; the
// others are there to be measured against it (FilterVariant::*Serial, *Lean, *Deep).
enum class FixedShapeId { Tuned, Lean, Deep, Serial };

// The fixed-point separable filter (separable_fixed.cu) for a spec that
// separable_fixed_fits() (separable_fixed_weights.hpp); throws Error(UnsupportedFormat)
// for any other.
void launch_separable_fixed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            FixedShapeId shape, const ExecContext& ctx);

// Whether the integer gradient kernel runs this spec: u8; the Magnitude rule over the
// two 3x3 masks edge_spec() builds for Sobel, Scharr or Prewitt (derivative (-s, 0, s)
// across, integer smoothing (a, b, a) along, the same s in both); 4-channel images
// with AlphaMode::Separate or Keep.
bool gradient_int_fits(PixelFormat format, const FilterSpec& spec);

// |s| * sqrt(Gx^2 + Gy^2) with the integer gradients Gx, Gy computed exactly
// (gradient_int.cu); throws Error(UnsupportedFormat) where gradient_int_fits() is false.
void launch_gradient_int(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                         FixedShapeId shape, const ExecContext& ctx);

}  // namespace gpufilter::kernels
