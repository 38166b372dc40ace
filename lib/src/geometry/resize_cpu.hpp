#pragma once
// Resize with the reference's own taps (reference/resize_taps.hpp) on all cores, where
// OpenCV's resize differs from them: its 8-bit fixed-point weights, its nearest pixel (a
// fixed-point position), its area filter when enlarging. Each output row is its source
// rows' weighted sum in float (one contiguous row, read at the stored width), then each
// output pixel the weighted sum of its columns in that row, rounded once, half to even,
// as the reference rounds; 8-bit linear enlarging sums the columns of each source row
// first and blends two such rows per output row. Nearest copies the pixels its taps name; halving an integer
// image (linear or area) averages each 2x2 block in integers.
#include <opencv2/core.hpp>

#include "gpufilter/geometry.hpp"

namespace gpufilter::cpu {

// `src` resized into `dst` (allocated, the output's size and src's type; CV_8U, CV_16U or
// CV_32F with 1, 3 or 4 channels), the two apart in memory.
void resample(const cv::Mat& src, cv::Mat& dst, ResizeFilter filter);

}  // namespace gpufilter::cpu
