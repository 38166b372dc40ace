#pragma once
// The lab's fixed-point separable kernel (separable_fixed.cu, horizontal pass first): its
// largest radius, its shape and which specs it takes. The library's 8-bit filters are
// separable_packed (vertical first) and gradient_int.
#include "convolution/gradient_int_tuning.hpp"
#include "convolution/separable_fixed_weights.hpp"

namespace gpufilter::kernels {

struct SeparableFixedTuning {
  // Largest radius: the vertical window keeps 2R+1 rows of 16-bit horizontal sums, one
  // register each, per channel sample a thread owns (4 to 12 samples): 36 to 108
  // registers at R = 4. Beyond it the float `separable` runs.
  static constexpr int kMaxRadius = 4;
  // Launched in gradient_int's shape (the lab's other shapes: fixed_shapes.hpp).
  using TunedShape = GradientIntTuning::TunedShape;
};

// Whether separable_fixed runs `spec` on `format`: an integer mask up to kMaxRadius
// (fixed_point_mask_fits), RGBA with channels separate.
inline bool separable_fixed_fits(PixelFormat format, const FilterSpec& spec) {
  if (format.channels == 4 && spec.alpha != AlphaMode::Separate) return false;
  return fixed_point_mask_fits(format, spec, SeparableFixedTuning::kMaxRadius);
}

}  // namespace gpufilter::kernels
