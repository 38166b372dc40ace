#pragma once
// A shape named at run time (FixedShapeId) as a type, for the lab's launchers.
#include "lab/convolution/fixed_shapes.hpp"
#include "lab/convolution/fixed_shapes_launch.hpp"

namespace gpufilter::lab {

template <class T>
struct ShapeTag {
  using type = T;
};

// Calls f(ShapeTag<Shape>{}) for the shape `id` names.
template <class F>
void visit_fixed_shape(FixedShapeId id, F&& f) {
  switch (id) {
    case FixedShapeId::Serial: return f(ShapeTag<FixedShapes::Serial>{});
    case FixedShapeId::Lean: return f(ShapeTag<FixedShapes::Lean>{});
    case FixedShapeId::Deep: return f(ShapeTag<FixedShapes::Deep>{});
    case FixedShapeId::Wide:  // the 3x3 walks' shape only: separable_fixed runs its tuned one
    case FixedShapeId::Tuned: break;
  }
  return f(ShapeTag<FixedShapes::Tuned>{});
}

}  // namespace gpufilter::lab
