#pragma once
// Writing a gray+alpha PNG. OpenCV decodes one as 4-channel BGRA (gray copied into B, G
// and R) and its PNG encoder cannot write two channels, so without this a gray+alpha file
// would come back as RGBA. The tool's PNG writer stores the gray (channel 0) and the alpha
// (channel 3).
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core/mat.hpp>

namespace gpufilter::io {

// Encodes an 8- or 16-bit 4-channel image into `bytes` (in memory) as a gray+alpha PNG.
// Returns an empty string on success, else why it failed. `compression` 0..9 as
// --png-compression; unset: the PNG writer's default.
std::string encode_gray_alpha_png(const cv::Mat& bgra, std::optional<int> compression,
                                  std::vector<unsigned char>& bytes);

}  // namespace gpufilter::io
