#pragma once
// The median filter on the CPU at the CPU tools' speed: the 3x3 window by a sorting
// network of its own, larger ones by OpenCV's medianBlur in row bands,
// on all cores; exactly the reference's result (a median is one of its inputs).
#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/median.hpp"

namespace gpufilter::cpu {

// Host views; synchronous; dst may be src. Windows OpenCV has no fast median for (16-bit
// and float beyond 5x5) run reference::median_filter. Throws what it throws.
void median_filter(const ImageView& src, const ImageView& dst, const MedianParams& params, const Border& border);

}  // namespace gpufilter::cpu
