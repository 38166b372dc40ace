#pragma once
// Launcher for the decimated Gaussian (large sigma at a cost that does not grow with it;
// decimated.cu, decimated_plan.hpp). src and dst are validated device views of equal
// size and format that do not overlap; `border.value` is representable in the pixel
// type.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// Whether decimated runs this spec: the same Gaussians box_stack takes
// (box_stack_fits: sigma >= 3 on both axes, masks reaching at least 3 sigma, Linear
// output without bias).
bool decimated_fits(const FilterSpec& spec);
// Whether Auto should take decimated: it fits and both axes decimate by at least
// DecimatedTuning::kAutoMinFactor (sigma from about 4.02).
bool decimated_preferred(const FilterSpec& spec);

// Three kernels on the stream: the down pass into a low-res float image (stream-ordered
// scratch memory), the residual Gaussian on it, the interpolation into dst. Throws
// Error(InvalidArgument) where decimated_fits() is false, Error(OutOfMemory) without
// scratch memory.
void launch_decimated(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                      const ExecContext& ctx);

}  // namespace gpufilter::kernels
