#pragma once
// The library's 8-bit integer gradient kernel (gradient_int.cu): the shape it is launched
// in and whether auto takes it. The lab's other shapes, one plain struct each, sit in
// lab/convolution/fixed_shapes.hpp; docs/techniques/convolution.md, "8-bit filters", has
// the reasoning.
#include "fixed_shape.hpp"  // same folder: included from the library and the kernels
namespace gpufilter::kernels {

struct GradientIntTuning {
  // The shape, the same on every architecture so far (the lab measures the others
  // against it; docs/techniques/convolution.md, "Launch shapes"): the next row's words are
  // requested before the current row's math, at most 72 registers where the window
  // allows (gray: 7 blocks of 128, 28 warps an SM; RGBA's 2-pixel window needs about 96:
  // 5 blocks; RGB 4 blocks), and strips cut so the grid is whole waves.
  using TunedShape = FixedShape<128, 72, 1, 4, 2, true>;
  // Strips of whole groups of its 3-row fast walk: 12 rows on gray, the best of 9-48 rows
  // (docs/techniques/convolution.md, "Session 15"); 15 on RGB and RGBA, where 15 and 18
  // measured faster than 12 on RGBA and as fast on RGB (docs/gpu-results.md, "The default calls").
  static constexpr StripBounds strip_rows(int channels) {
    return channels == 1 ? StripBounds{12, 12} : StripBounds{15, 15};
  }
  // It runs the 8-bit Sobel magnitude well ahead of the 2-D tile
  // (docs/gpu-results.md#convolution), so auto takes it.
  static constexpr bool kAutoPicks = true;
};

}  // namespace gpufilter::kernels
