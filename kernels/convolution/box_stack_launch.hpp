#pragma once
// Launcher for the stacked-box Gaussian (large sigma at a cost that does not grow with
// it; box_stack.cu). src and dst are validated device views of equal size and format
// that do not overlap; `border.value` is representable in the pixel type.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

struct BoxStackPlan;  // box_stack_plan.hpp

// Whether box_stack runs this spec: one sampled Gaussian (FilterSpec::gaussian) with the
// Linear output and no bias, each axis of sigma >= BoxStackTuning::kMinSigma and
// truncated no closer than 3 sigma (a mask cut shorter is no longer a Gaussian the boxes
// can follow).
bool box_stack_fits(const FilterSpec& spec);

// How box_stack runs: Fused (the default) in one pass where box_stack_fused_fits(), else
// in two; TwoPass always in two.
enum class BoxStackShape { Fused, TwoPass };

// Whether the one-pass kernel runs this spec on this format: box_stack_fits(), a row
// stack that leaves a strip of at least BoxStackTuning::kFusedMinStripWidth columns a
// block (sigma up to about 75), and row buffers that fit the GPU's shared memory.
bool box_stack_fused_fits(PixelFormat format, const FilterSpec& spec);
// The same for a spec that fits box_stack, given its row plan (cached_box_stack_plan).
bool box_stack_fused_fits(PixelFormat format, const BoxStackPlan& row_plan);

// TwoPass, or Fused where it does not fit: two passes, each a walk down columns that
// writes its result transposed: the columns of src into a scratch image on the stream
// (u16 fixed point for u8 images, else f32), then the columns of that (the rows of src)
// into dst. Fused: one pass (box_stack_fused.cu). Throws Error(InvalidArgument) where
// box_stack_fits() is false, Error(OutOfMemory) without scratch memory.
void launch_box_stack(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                      BoxStackShape shape, const ExecContext& ctx);
// The one-pass kernel alone, for a spec that box_stack_fused_fits() with its two plans.
void launch_box_stack_fused(const ImageView& src, const ImageView& dst, const BoxStackPlan& column_plan,
                            const BoxStackPlan& row_plan, const FilterSpec& spec, const Border& border,
                            const ExecContext& ctx);

}  // namespace gpufilter::kernels
