// The median filter's CPU path. The 3x3 window runs a sorting network per sample
// (branch-free minimums and maximums, so the loop runs on vectors) straight from the
// source rows: OpenCV's medianBlur has the same network but only replicates at the edges,
// so it would need a padded copy of the image and a copy of its result; here the rows
// above and below come through the library's border map and only the first and last
// column of each row read through a small padded window. For larger windows, each band of
// rows, with the radius of rows above and below it, is padded by the library's border
// rules into a buffer of its thread, goes through medianBlur, and the band's inner part is
// the output. A band's buffers stay in cache, and no whole padded copy is made, except
// where dst overlaps src (in place): then every band reads from one padded copy of the
// source. Exact: a median is one of its inputs.
#include "rank/median_cpu.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/border_index.hpp"
#include "common/opencv_image.hpp"
#include "common/overlap_copy.hpp"
#include "common/pixel_access.hpp"
#include "common/vector_build.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"

namespace gpufilter::cpu {
namespace {


// Orders a pair: a gets the smaller value.
template <class T>
GPUFILTER_INLINE void order(T& a, T& b) {
  const T low = std::min(a, b);
  b = std::max(a, b);
  a = low;
}

// The median of nine values: Paeth's network of 19 ordered pairs.
template <class T>
GPUFILTER_INLINE T median_of_nine(T p0, T p1, T p2, T p3, T p4, T p5, T p6, T p7, T p8) {
  order(p1, p2); order(p4, p5); order(p7, p8); order(p0, p1);
  order(p3, p4); order(p6, p7); order(p1, p2); order(p4, p5);
  order(p7, p8); order(p0, p3); order(p5, p8); order(p4, p7);
  order(p3, p6); order(p1, p4); order(p2, p5); order(p4, p7);
  order(p4, p2); order(p6, p4); order(p4, p2);
  return p4;
}

// out[j] for j in [begin, end): the median of the 3x3 window around j in rows a, b, c,
// whose horizontal neighbours lie `step` values away.
template <class T>
GPUFILTER_VECTOR_CLONES void median_row(const T* a, const T* b, const T* c, int step, int begin, int end,
                                        T* __restrict out) {
  for (int j = begin; j < end; ++j)
    out[j] = median_of_nine(a[j - step], a[j], a[j + step], b[j - step], b[j], b[j + step], c[j - step], c[j],
                            c[j + step]);
}

template <class T>
void median3_as(const ImageView& src, const ImageView& dst, const Border& border) {
  const int width = src.width, height = src.height, channels = src.format.channels;
  const std::size_t values = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
  // A row of the constant, for rows beyond a constant border.
  std::vector<T> constant_row(values);
  for (std::size_t i = 0; i < values; ++i)
    constant_row[i] = static_cast<T>(reference::stored_value(border.value[i % static_cast<std::size_t>(channels)], src.format.type));
  const auto source_row = [&](int y) {
    const int sy = reference::border_index(y, height, border.mode);
    return sy < 0 ? constant_row.data() : src.row<const T>(sy);
  };
  // The columns that the first and last pixel's windows read (-1: the constant).
  const int left = reference::border_index(-1, width, border.mode);
  const int right = reference::border_index(width, width, border.mode);
  cv::parallel_for_(
      cv::Range(0, height),
      [&](const cv::Range& range) {
        for (int y = range.start; y < range.end; ++y) {
          const std::array<const T*, 3> rows = {source_row(y - 1), source_row(y), source_row(y + 1)};
          T* out = dst.row<T>(y);
          if (width >= 3) median_row<T>(rows[0], rows[1], rows[2], channels, channels, (width - 1) * channels, out);
          // The first and last pixel (one pixel: both are it), through the column map.
          for (int x : {0, width - 1}) {
            const std::array<int, 3> columns = {x == 0 ? left : x - 1, x, x == width - 1 ? right : x + 1};
            for (int c = 0; c < channels; ++c) {
              std::array<T, 9> w{};
              for (std::size_t r = 0; r < 3; ++r)
                for (std::size_t k = 0; k < 3; ++k)
                  w[3 * r + k] = columns[k] < 0 ? constant_row[static_cast<std::size_t>(c)] : rows[r][columns[k] * channels + c];
              out[x * channels + c] = median_of_nine(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8]);
            }
          }
        }
      },
      std::max(1.0, height / 32.0));
}

// The 3x3 median straight from the source rows into the destination rows, on all cores (see
// the file's comment). Host views of one format and size; dst may be src.
void median3(const ImageView& src, const ImageView& dst, const Border& border) {
  if (reference::may_overlap(src, dst)) {
    // Rows are written while later rows are still being read: read from a copy.
    const reference::PackedCopy copy(src);
    median3(copy.view(), dst, border);
    return;
  }
  switch (src.format.type) {
    case ChannelType::U8: median3_as<std::uint8_t>(src, dst, border); return;
    case ChannelType::U16: median3_as<std::uint16_t>(src, dst, border); return;
    case ChannelType::F32: median3_as<float>(src, dst, border); return;
  }
}

}  // namespace

void median_filter(const ImageView& src, const ImageView& dst, const MedianParams& params, const Border& border) {
  validate_pair(src, dst, "median");
  const int r = params.radius;
  // medianBlur takes any window on 8-bit images, 3x3 and 5x5 only on 16-bit and float.
  if (r < 1 || r > MedianParams::kMaxRadius || (src.format.type != ChannelType::U8 && r > 2)) {
    reference::median_filter(src, dst, params, border);
    return;
  }
  if (r == 1) {
    median3(src, dst, border);
    return;
  }
  const cv::Mat source = as_mat(src);
  const cv::Mat out = as_mat(dst);
  const bool in_place = reference::may_overlap(src, dst);
  const cv::Mat whole = in_place ? padded(source, r, r, border) : cv::Mat();
  const int height = src.height, width = src.width;
  const int threads = std::max(1, cv::getNumThreads());
  // Bands of 64 rows or more: a 24 MP RGB band and its result are ~2.4 MB.
  const int band_rows = std::max(64, std::min(256, (height + 4 * threads - 1) / (4 * threads)));
  const int bands = (height + band_rows - 1) / band_rows;
  cv::parallel_for_(cv::Range(0, bands), [&](const cv::Range& range) {
    cv::Mat band, window_medians;
    for (int b = range.start; b < range.end; ++b) {
      const int y0 = b * band_rows, y1 = std::min(height, y0 + band_rows);
      // Padded rows y0 - r .. y1 + r hold the band's windows; the outer r rows and columns
      // of the result read medianBlur's own border and are dropped.
      if (in_place)
        band = whole.rowRange(y0, y1 + 2 * r);
      else
        padded_rows(source, r, y0 - r, y1 - y0 + 2 * r, border, band);
      cv::medianBlur(band, window_medians, 2 * r + 1);
      cv::Mat out_rows = out.rowRange(y0, y1);
      window_medians(cv::Rect(r, r, width, y1 - y0)).copyTo(out_rows);
    }
  });
}

}  // namespace gpufilter::cpu
