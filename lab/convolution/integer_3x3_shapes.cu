// The library's integer_3x3 kernel (kernels/convolution/integer_3x3.cuh) in the lab's
// launch shapes, to be measured against its tuned one.
#include "convolution/integer_3x3.cuh"
#include "convolution/integer_3x3_launch.hpp"
#include "lab/convolution/fixed_shapes.hpp"
#include "lab/convolution/fixed_shapes_launch.hpp"

namespace gpufilter::lab {

void launch_integer_3x3_shape(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                              const Border& border, FixedShapeId shape, const ExecContext& ctx) {
  if (!kernels::integer_3x3_fits(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat, "integer_3x3: runs 8-bit masks of up to 3x3 integer weights");
  switch (shape) {
    case FixedShapeId::Lean: kernels::launch_integer_3x3_in<FixedShapes::Lean>(src, dst, spec, border, ctx); return;
    case FixedShapeId::Deep: kernels::launch_integer_3x3_in<FixedShapes::Deep>(src, dst, spec, border, ctx); return;
    case FixedShapeId::Wide: kernels::launch_integer_3x3_in<FixedShapes::Wide>(src, dst, spec, border, ctx); return;
    case FixedShapeId::Serial:
    case FixedShapeId::Tuned: break;
  }
  kernels::launch_integer_3x3(src, dst, spec, border, ctx);  // the library's own shape
}

}  // namespace gpufilter::lab
