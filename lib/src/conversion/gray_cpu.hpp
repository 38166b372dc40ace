#pragma once
// Colour to gray on the CPU at the CPU tools' speed: the reference's weighted sum in float
// (double for float images) over row bands on all cores, rounded as the reference rounds.
#include "gpufilter/conversions.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::cpu {

// As reference::gray (src: 3 or 4 channels, alpha dropped; dst: 1 channel of src's type),
// within gray's tolerance: a sum within float rounding of .5 may round the other way, as
// on the GPU. Host views; synchronous; dst may overlap src. Throws what reference::gray
// throws for views it refuses.
void gray(const ImageView& src, const ImageView& dst, GrayWeights weights);

}  // namespace gpufilter::cpu
