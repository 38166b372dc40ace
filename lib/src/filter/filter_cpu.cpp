// Rank-1 specs run in separable_cpu.cpp. The others go through in bands of rows, one band
// per task of cv::parallel_for_: a band and the rows its masks reach are converted to
// float (and premultiplied) into a buffer of the task's own, OpenCV's float filter2D sums
// each mask over the band (reading the buffer's rows above and below it, and
// extrapolating only at the image's own edges), and the output rule (filter_output.hpp)
// turns the sums into the band's output rows. Float throughout: OpenCV's 8-bit filters
// round each weight to 1/256, which misses the exact result by several levels. Float
// images are summed in double: their contract is 1e-4 absolute, and dividing by a small
// filtered alpha (premultiplied RGBA) magnifies float's rounding beyond it.
#include "filter/filter_cpu.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "filter/filter_output.hpp"
#include "common/opencv_image.hpp"
#include "filter/separable_cpu.hpp"
#include "gpufilter/error.hpp"
#include "common/overlap_copy.hpp"

namespace gpufilter::cpu {
namespace {

// Mask k's sums over `band` (a view inside a larger buffer), in the band's depth.
void sum_mask(const FilterSpec& spec, std::size_t k, const cv::Mat& band, cv::Mat& sums, int cv_border) {
  const Mask& mask = spec.masks[k];
  const cv::Mat kernel(mask.height, mask.width, CV_32F, const_cast<float*>(mask.weights.data()));
  cv::filter2D(band, sums, band.depth(), kernel, cv::Point(-1, -1), 0.0, cv_border);
}

// Premultiplies every row of a 4-channel band buffer (filter_output.hpp).
template <class T>
void premultiply_rows(cv::Mat& rgba, T max) {
  for (int y = 0; y < rgba.rows; ++y) premultiply_row(rgba.ptr<T>(y), rgba.cols, max);
}

// The output rule over every row of a band (filter_output.hpp), in place in `sums0`.
template <class T>
void finish_rows(const FilterSpec& spec, int channels, T max, const cv::Mat& band, cv::Mat& sums0, const cv::Mat& sums1) {
  for (int y = 0; y < band.rows; ++y)
    finish_row<T>(spec, channels, band.cols, max, band.ptr<T>(y), sums0.ptr<T>(y),
                  sums1.empty() ? nullptr : sums1.ptr<T>(y));
}

}  // namespace

void apply_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border) {
  validate_pair(src, dst, "filter");
  validate(spec, "filter");
  if (spec.is_separable()) {
    if (!reference::may_overlap(src, dst)) {
      separable_filter(src, dst, spec, border);
    } else {
      const reference::PackedCopy copy(src);  // rows are written while later rows are read
      separable_filter(copy.view(), dst, spec, border);
    }
    return;
  }
  const int width = src.width, height = src.height, channels = src.format.channels;
  const int rx = spec.width() / 2, ry = spec.height() / 2;
  const double max = src.format.max_value();
  const bool in_double = src.format.type == ChannelType::F32;
  const bool premultiplied = channels == 4 && spec.alpha == AlphaMode::Premultiply;

  // Where OpenCV extrapolates as we do, it reads the image itself (or a copy, where dst
  // overlaps it: rows are written while later rows are read); elsewhere a copy padded by
  // our rules, of which the image is the inner part at (ox, oy).
  cv::Mat image = as_mat(src);
  int ox = 0, oy = 0, cv_border = cv::BORDER_REFLECT_101;
  if (opencv_border_matches(border.mode, width, height, rx, ry)) {
    cv_border = opencv_border(border.mode);
    if (reference::may_overlap(src, dst)) image = image.clone();
  } else {
    image = padded(image, rx, ry, border);
    ox = rx;
    oy = ry;
  }
  const cv::Mat out = as_mat(dst);

  // Bands of 64 rows (more for tall masks, whose rows above and below a band are read
  // again by the next): a band's float buffers stay in the cache between the passes. Each
  // task takes a run of bands and reuses its buffers, so fresh pages are touched once.
  const int band_rows = std::max(64, 4 * ry);
  const int bands = (height + band_rows - 1) / band_rows;
  const double tasks = std::min(bands, 4 * std::max(1, cv::getNumThreads()));
  cv::parallel_for_(cv::Range(0, bands), [&](const cv::Range& range) {
    cv::Mat buffer, band_sums[2];
    for (int b = range.start; b < range.end; ++b) {
      const int y0 = b * band_rows, y1 = std::min(height, y0 + band_rows);
      // The rows of `image` the band's masks read (all of them where it is padded).
      const int first = std::max(0, oy + y0 - ry), last = std::min(image.rows, oy + y1 + ry);
      image.rowRange(first, last).convertTo(buffer, CV_MAKETYPE(in_double ? CV_64F : CV_32F, channels));
      if (premultiplied) {
        if (in_double) premultiply_rows<double>(buffer, max);
        else premultiply_rows<float>(buffer, static_cast<float>(max));
      }
      const cv::Mat band = buffer(cv::Rect(ox, oy + y0 - first, width, y1 - y0));
      for (std::size_t k = 0; k < spec.masks.size(); ++k) sum_mask(spec, k, band, band_sums[k], cv_border);
      const bool plain = spec.output == FilterOutput::Linear && spec.bias == 0.0 &&
                         !(channels == 4 && spec.alpha != AlphaMode::Separate);
      if (!plain) {
        if (in_double) finish_rows<double>(spec, channels, max, band, band_sums[0], band_sums[1]);
        else finish_rows<float>(spec, channels, static_cast<float>(max), band, band_sums[0], band_sums[1]);
      }
      // Rounds half to even and saturates integer outputs, as the reference does.
      cv::Mat out_rows = out.rowRange(y0, y1);
      band_sums[0].convertTo(out_rows, out.type());
    }
  }, tasks);
}

}  // namespace gpufilter::cpu
