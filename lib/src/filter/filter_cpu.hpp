#pragma once
// Any FilterSpec on the CPU at the CPU tools' speed: OpenCV's vectorized float filters on
// all cores, within the filter contract of reference::apply_filter (the test oracle).
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::cpu {

// Host views; synchronous. Throws what reference::apply_filter throws for bad views or
// specs. dst may be src (or overlap it).
void apply_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border);

}  // namespace gpufilter::cpu
