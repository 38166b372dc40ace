// The library's gradient_int kernel (kernels/convolution/gradient_int.cuh) in the lab's
// launch shapes, to be measured against its tuned one.
#include "convolution/gradient_int.cuh"
#include "convolution/gradient_int_launch.hpp"
#include "lab/convolution/fixed_shapes.hpp"
#include "lab/convolution/fixed_shapes_launch.hpp"

namespace gpufilter::lab {

void launch_gradient_int_shape(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                               const Border& border, FixedShapeId shape, const ExecContext& ctx) {
  if (!kernels::gradient_int_fits(src.format, spec))
    throw Error(ErrorCode::UnsupportedFormat, "gradient_int: runs the Sobel, Scharr and Prewitt magnitudes on 8-bit "
                                              "images (not premultiplied alpha)");
  switch (shape) {
    case FixedShapeId::Serial: kernels::launch_gradient_int_in<FixedShapes::Serial>(src, dst, spec, border, ctx); return;
    case FixedShapeId::Lean: kernels::launch_gradient_int_in<FixedShapes::Lean>(src, dst, spec, border, ctx); return;
    case FixedShapeId::Deep: kernels::launch_gradient_int_in<FixedShapes::Deep>(src, dst, spec, border, ctx); return;
    case FixedShapeId::Wide: kernels::launch_gradient_int_in<FixedShapes::Wide>(src, dst, spec, border, ctx); return;
    case FixedShapeId::Tuned: break;
  }
  kernels::launch_gradient_int(src, dst, spec, border, ctx);  // the library's own shape
}

}  // namespace gpufilter::lab
