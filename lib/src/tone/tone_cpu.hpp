#pragma once
// The tone ops on all cores: histograms counted in row bands and summed, the reference's
// tables (reference/tone_tables.hpp), applied by cv::LUT (the luminance equalization by
// its own loop, in bands). Exact: the same tables on the same counts. In place is fine
// (the histograms are counted before any pixel is written); views a table cannot map
// (cpu::table_maps: other formats, overlapping views) run the reference.
#include "gpufilter/image_view.hpp"
#include "gpufilter/tone_types.hpp"

namespace gpufilter::cpu {

void equalize(const ImageView& src, const ImageView& dst, const EqualizeParams& params);
void threshold(const ImageView& src, const ImageView& dst, const ThresholdParams& params);
void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& params);

}  // namespace gpufilter::cpu
