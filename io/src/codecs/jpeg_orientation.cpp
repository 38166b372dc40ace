#include "gpufilter/io/jpeg_orientation.hpp"

#include "gpufilter/geometry.hpp"
#include "gpufilter/reference.hpp"

namespace gpufilter::io {

bool orientation_swaps_sides(int orientation) { return orientation >= 5 && orientation <= 8; }

void apply_orientation_step(OrientationStep step, const ImageView& src, const ImageView& dst, bool on_gpu,
                            const ExecContext& ctx) {
  switch (step) {
    case OrientationStep::Transpose:
      if (on_gpu) {
        transpose(src, dst, TransposeOptions{}, ctx);
      } else {
        reference::transpose(src, dst);
      }
      return;
    case OrientationStep::Rotate90:
    case OrientationStep::Rotate270: {
      const int angle = step == OrientationStep::Rotate90 ? 90 : 270;
      if (on_gpu) {
        rotate_quarter_turns(src, dst, angle, TransposeOptions{}, ctx);
      } else {
        reference::rotate_quarter_turns(src, dst, angle);
      }
      return;
    }
    case OrientationStep::FlipHorizontal:
    case OrientationStep::FlipVertical:
    case OrientationStep::FlipBoth: {
      const FlipAxis axis = step == OrientationStep::FlipHorizontal ? FlipAxis::Horizontal
                            : step == OrientationStep::FlipVertical ? FlipAxis::Vertical
                                                                    : FlipAxis::Both;
      if (on_gpu) {
        flip(src, dst, axis, FlipVariant::Wide, ctx);  // the fastest measured (gpu-results)
      } else {
        reference::flip(src, dst, axis);
      }
      return;
    }
  }
}

}  // namespace gpufilter::io
