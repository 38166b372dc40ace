#pragma once
// The tone ops' tables from their histograms: the op's definition (tone_types.hpp) in
// one place, which the reference and the CPU path both apply; each counts its own
// histograms and applies the tables itself.
#include <array>
#include <cstdint>

#include "gpufilter/image_view.hpp"

namespace gpufilter::reference::tone {

using Histogram = std::array<unsigned long long, 256>;
using Table = std::array<std::uint8_t, 256>;

// Channels in R, G, B order (the library's); OpenCV's fixed-point BT.601 weights.
inline int luminance(int r, int g, int b) { return (77 * r + 150 * g + 29 * b + 128) / 256; }

// The channels the tables map: gray's one, or a colour image's three (alpha is copied).
inline int colour_channels(const ImageView& v) { return v.format.channels == 1 ? 1 : 3; }
inline unsigned long long pixel_count(const ImageView& v) {
  return static_cast<unsigned long long>(v.width) * static_cast<unsigned long long>(v.height);
}

// cv::equalizeHist's table.
Table equalize_table(const Histogram& h, unsigned long long pixels);
// 255 above `threshold`, 0 at or below.
Table threshold_table(int threshold);
// The stretch of NormalizeParams, with `clip_count` samples ignored at each end.
Table normalize_table(const Histogram& h, unsigned long long pixels, double clip_count);

}  // namespace gpufilter::reference::tone
