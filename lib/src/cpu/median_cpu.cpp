// The image is padded by the library's border rules once (medianBlur itself only
// replicates), then each band of rows, with the radius of rows above and below it, goes
// through medianBlur, and the band's inner part is the output.
#include "cpu/median_cpu.hpp"

#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "cpu/opencv_image.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"

namespace gpufilter::cpu {

void median_filter(const ImageView& src, const ImageView& dst, const MedianParams& params, const Border& border) {
  validate_pair(src, dst, "median");
  const int r = params.radius;
  // medianBlur takes any window on 8-bit images, 3x3 and 5x5 only on 16-bit and float.
  if (r < 1 || r > MedianParams::kMaxRadius || (src.format.type != ChannelType::U8 && r > 2)) {
    reference::median_filter(src, dst, params, border);
    return;
  }
  const cv::Mat image = padded(as_mat(src), r, r, border);  // a copy: dst may be src
  const cv::Mat out = as_mat(dst);
  const int height = src.height, width = src.width;
  const int threads = std::max(1, cv::getNumThreads());
  const int band_rows = std::max(32, (height + 4 * threads - 1) / (4 * threads));
  const int bands = (height + band_rows - 1) / band_rows;
  cv::parallel_for_(cv::Range(0, bands), [&](const cv::Range& range) {
    cv::Mat window_medians;
    for (int b = range.start; b < range.end; ++b) {
      const int y0 = b * band_rows, y1 = std::min(height, y0 + band_rows);
      // Padded rows y0 .. y1 + 2r hold the band's windows; the outer r rows and columns of
      // the result read medianBlur's own border and are dropped.
      cv::medianBlur(image.rowRange(y0, y1 + 2 * r), window_medians, 2 * r + 1);
      cv::Mat out_rows = out.rowRange(y0, y1);
      window_medians(cv::Rect(r, r, width, y1 - y0)).copyTo(out_rows);
    }
  });
}

}  // namespace gpufilter::cpu
