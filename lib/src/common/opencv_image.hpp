#pragma once
// The CPU fast path's bridge to OpenCV: a host ImageView seen as a cv::Mat (no copy), and
// an image padded by this library's own border rules, so OpenCV's functions never decide
// what lies outside an image (their wrap, constant value and many-fold reflection differ
// from ours or are missing).
#include <opencv2/core.hpp>

#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::cpu {

// CV_8U, CV_16U or CV_32F with the view's channel count.
int mat_type(PixelFormat format);
// The view's pixels as a cv::Mat header (same memory, same row pitch).
cv::Mat as_mat(const ImageView& view);
// A copy of `src` with `rx` columns and `ry` rows added on each side, filled as
// reference::border_index and Border::value say (the constant stored as the pixels are).
cv::Mat padded(const cv::Mat& src, int rx, int ry, const Border& border);
// Rows first .. first + count - 1 of `src` extended by the border (negative and past the
// last row included), each padded with rx columns a side, into `out` (allocated only where
// its size or type differs): a band of padded(src, rx, ry, border) starting at its row
// first + ry, made on the calling thread, for filters that pad band by band.
void padded_rows(const cv::Mat& src, int rx, int first, int count, const Border& border, cv::Mat& out);
// Whether OpenCV's own extrapolation gives this border: reflect101, replicate and reflect,
// on an image at least a radius plus one wide and high (no reflection of a reflection).
bool opencv_border_matches(BorderMode mode, int width, int height, int rx, int ry);
// OpenCV's code for reflect101, replicate and reflect.
int opencv_border(BorderMode mode);

}  // namespace gpufilter::cpu
