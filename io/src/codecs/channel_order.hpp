#pragma once
// The library's colour channels are R, G, B(, A); OpenCV's codecs decode into and encode
// from B, G, R(, A). The tool swaps at the two ends, so ops that tell channels apart
// (gray's weights, equalize's luminance, --channels and --order letters, the columns of
// stats and histogram) see them as the library documents them.
#include <opencv2/core.hpp>

namespace gpufilter::io {

// BGR(A) -> RGB(A) in place; gray and gray+alpha images are left as they are.
void to_library_order(cv::Mat& image);
// RGB(A) -> BGR(A) in place, the inverse.
void to_codec_order(cv::Mat& image);

}  // namespace gpufilter::io
