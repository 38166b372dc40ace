#pragma once
// The launcher of the 8-bit integer gradient kernel (gradient_int.cu). src and dst are
// validated device views of equal size and format that do not overlap; `border.value`
// is representable in u8.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// Whether the integer gradient kernel runs this spec: u8; the Magnitude rule over the
// two 3x3 masks edge_spec() builds for Sobel, Scharr or Prewitt (derivative (-s, 0, s)
// across, integer smoothing (a, b, a) along, the same s in both); 4-channel images
// with AlphaMode::Separate or Keep.
bool gradient_int_fits(PixelFormat format, const FilterSpec& spec);

// |s| * sqrt(Gx^2 + Gy^2) with the integer gradients Gx, Gy computed exactly, in the
// tuned launch shape (GradientIntTuning::TunedShape); throws
// Error(UnsupportedFormat) where gradient_int_fits() is false.
void launch_gradient_int(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                         const ExecContext& ctx);

}  // namespace gpufilter::kernels
