#pragma once
// Launchers of the lab's 8-bit register-window kernels. src and dst are validated device
// views of equal size and format that do not overlap; `border.value` is representable
// in u8.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::lab {

// The shapes of lab/convolution/fixed_shapes.hpp, named at run time.
// Wide: the 3x3 walks' only (separable_fixed does not take it).
enum class FixedShapeId { Tuned, Lean, Deep, Serial, Wide };

// The fixed-point separable filter (separable_fixed.cu) for a spec that
// kernels::separable_fixed_fits(); throws Error(UnsupportedFormat) for any other.
void launch_separable_fixed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                            FixedShapeId shape, const ExecContext& ctx);

// The library's gradient_int kernel in another shape, for a spec that
// kernels::gradient_int_fits(); throws Error(UnsupportedFormat) for any other.
void launch_gradient_int_shape(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                               const Border& border, FixedShapeId shape, const ExecContext& ctx);

// The library's integer_3x3 kernel in another shape, for a spec that
// kernels::integer_3x3_fits(); throws Error(UnsupportedFormat) for any other.
void launch_integer_3x3_shape(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                              const Border& border, FixedShapeId shape, const ExecContext& ctx);

}  // namespace gpufilter::lab
