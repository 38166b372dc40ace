#pragma once
// Geometry on the CPU at the CPU tools' speed: transposes, quarter turns and flips on all
// cores (pixel_moves.hpp), exact by construction, and OpenCV's resize, within the resize
// contract of the reference. Views that overlap (in place) read from a copy of the source.
#include "gpufilter/geometry.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::cpu {

// Host views; synchronous; throw what the references throw.
void transpose(const ImageView& src, const ImageView& dst);
// Clockwise, `degrees` a multiple of 90 (any sign).
void rotate_quarter_turns(const ImageView& src, const ImageView& dst, int degrees);
void flip(const ImageView& src, const ImageView& dst, FlipAxis axis);
// cv::resize with the interpolation each filter names (geometry.hpp), which the reference
// follows; dst's size is the output's.
void resize(const ImageView& src, const ImageView& dst, ResizeFilter filter);

}  // namespace gpufilter::cpu
