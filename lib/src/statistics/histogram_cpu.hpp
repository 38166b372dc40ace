#pragma once
// The histogram on all cores, with the reference's bin formula (statistics.hpp), so the
// counts are the reference's exactly.
#include "gpufilter/statistics.hpp"

namespace gpufilter::cpu {

// As reference::histogram: host view and counts, synchronous, the same checks.
void histogram(const ImageView& src, double* counts, const HistogramParams& params);

}  // namespace gpufilter::cpu
