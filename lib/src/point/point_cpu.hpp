#pragma once
// Point ops on 8-bit images at the CPU tools' speed: the reference run once over every
// value 0..255 of every channel gives a table, which cv::LUT applies on all cores. Exact:
// the table holds the reference's own results.
#include <functional>

#include "gpufilter/image_view.hpp"

namespace gpufilter::cpu {

// Whether a 256-entry table per channel (cv::LUT) may map src into dst: u8 views of one
// format and size, the same memory with the same pitch (in place) or apart.
bool table_maps(const ImageView& src, const ImageView& dst);

// `reference`: the op's reference with its parameters bound; it must map each channel
// sample on its own (a point op). 16-bit and float images run it directly.
void point_op(const ImageView& src, const ImageView& dst,
              const std::function<void(const ImageView&, const ImageView&)>& reference);

}  // namespace gpufilter::cpu
