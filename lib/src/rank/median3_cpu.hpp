#pragma once
// The 3x3 median straight from the source rows into the destination rows, on all cores: a
// sorting network per sample (branch-free minimums and maximums, so the loop runs on
// vectors). OpenCV's medianBlur has the same network but only replicates at the edges, so
// it needs a padded copy of the image and a copy of its result; here the rows above and
// below come through the library's border map and only the first and last column of each
// row read through a small padded window. Exact: a median is one of its inputs.
#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::cpu {

// Host views of one format and size (checked by the caller); dst may be src.
void median3(const ImageView& src, const ImageView& dst, const Border& border);

}  // namespace gpufilter::cpu
