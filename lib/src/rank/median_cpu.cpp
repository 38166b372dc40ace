// The 3x3 window runs median3_cpu.hpp's network straight from the source rows. For larger
// windows, each band of rows, with the radius of rows above and below it, is padded by the
// library's border rules (medianBlur itself only replicates) into a buffer of its thread,
// goes through medianBlur, and the band's inner part is the output. A band's buffers stay
// in cache, and no whole padded copy is made, except where dst overlaps src (in place):
// then every band reads from one padded copy of the source.
#include "rank/median_cpu.hpp"

#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "rank/median3_cpu.hpp"
#include "common/opencv_image.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"
#include "common/overlap_copy.hpp"

namespace gpufilter::cpu {

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
