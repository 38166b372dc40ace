#pragma once
// Pixel moves on the CPU at the CPU tools' speed: OpenCV's transpose, rotate and flip,
// exact by construction. Views that overlap (in place) read from a copy of the source.
#include "gpufilter/geometry.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::cpu {

// Host views; synchronous; throw what the references throw.
void transpose(const ImageView& src, const ImageView& dst);
// Clockwise, `degrees` a multiple of 90 (any sign).
void rotate_quarter_turns(const ImageView& src, const ImageView& dst, int degrees);
void flip(const ImageView& src, const ImageView& dst, FlipAxis axis);

}  // namespace gpufilter::cpu
