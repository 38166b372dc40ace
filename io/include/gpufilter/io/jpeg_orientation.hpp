#pragma once
/// @file
/// A JPEG's EXIF orientation (1..8) as the geometry steps that turn its stored pixels
/// upright, the same steps OpenCV's imread takes (cv::flip, cv::transpose), so that
/// nvJPEG's output turned on the GPU equals OpenCV's decode turned on the CPU.
#include <vector>

#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::io {

enum class OrientationStep {
  Transpose,       // dst(x, y) = src(y, x)
  Rotate90,        // clockwise
  Rotate270,       // clockwise (a quarter turn anticlockwise)
  FlipHorizontal,  // left-right
  FlipVertical,    // top-bottom
  FlipBoth,        // a half turn
};

/// Empty for 1 and for anything outside 1..8 (as OpenCV ignores it); one step for 2..6
/// and 8; Transpose then FlipBoth for 7. Inline: the CPU codec (jpeg_cpu_codec.cpp) turns
/// its decodes by it too, also where it is built without the library (the fuzz targets).
inline std::vector<OrientationStep> orientation_steps(int orientation) {
  using S = OrientationStep;
  switch (orientation) {
    case 2: return {S::FlipHorizontal};
    case 3: return {S::FlipBoth};
    case 4: return {S::FlipVertical};
    case 5: return {S::Transpose};
    case 6: return {S::Rotate90};  ///< OpenCV: transpose, then flip left-right
    case 7: return {S::Transpose, S::FlipBoth};
    case 8: return {S::Rotate270};  ///< OpenCV: transpose, then flip top-bottom
    default: return {};
  }
}

/// Whether the upright image is the stored one's transpose in size (orientations 5..8).
bool orientation_swaps_sides(int orientation);

/// Applies `step` from src into dst (dst of the step's output size; device memory, or host
/// memory with `on_gpu` false, where the library's CPU reference runs it). Enqueued on
/// ctx.stream on the GPU.
void apply_orientation_step(OrientationStep step, const ImageView& src, const ImageView& dst, bool on_gpu,
                            const ExecContext& ctx = {});

}  // namespace gpufilter::io
