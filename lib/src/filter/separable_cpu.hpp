#pragma once
// Rank-1 filters on the CPU: a horizontal and a vertical pass in float (double for float
// images) over a sliding window of rows, vectorized by the compiler for the CPU it runs on.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::cpu {

// `spec` must be valid and separable (is_separable()); dst must not overlap src. Host
// views; synchronous.
void separable_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border);

}  // namespace gpufilter::cpu
