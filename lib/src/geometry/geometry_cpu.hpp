#pragma once
// Geometry on the CPU at the CPU tools' speed: transposes, quarter turns and flips on all
// cores (pixel_moves.hpp), exact by construction, and resize, by OpenCV or by the
// reference's taps in float (resize_cpu.hpp), within the resize contract of the
// reference. Views that overlap (in place) read from a copy of the source.
#include "gpufilter/geometry.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::cpu {

// Host views; synchronous; throw what the references throw.
void transpose(const ImageView& src, const ImageView& dst);
// Clockwise, `degrees` a multiple of 90 (any sign).
void rotate_quarter_turns(const ImageView& src, const ImageView& dst, int degrees);
void flip(const ImageView& src, const ImageView& dst, FlipAxis axis);
// The filter's taps as the reference defines them (geometry.hpp): cv::resize where its
// result keeps the contract, the reference's taps elsewhere; dst's size is the output's.
void resize(const ImageView& src, const ImageView& dst, ResizeFilter filter);

}  // namespace gpufilter::cpu
