#pragma once
// The library's 8-bit integer 3x3 kernel (integer_3x3.cu): the shape it is launched in
// and whether auto takes it; docs/techniques/convolution.md, "8-bit 3x3 masks in
// integers", has the measurements.
#include "gradient_int_tuning.hpp"  // same folder: included from the library and the kernels
namespace gpufilter::kernels {

struct Integer3x3Tuning {
  // The walk is gradient_int's (window3_int.cuh), with two rows of sums kept where the
  // gradient keeps three rows of two values: its shape and strips.
  using TunedShape = GradientIntTuning::TunedShape;
  static constexpr StripBounds strip_rows(int channels) { return GradientIntTuning::strip_rows(channels); }
  // It runs the default convolve and emboss rows ahead of the float column walk
  // (docs/gpu-results.md, "The default calls"), so auto takes it.
  static constexpr bool kAutoPicks = true;
};

}  // namespace gpufilter::kernels
