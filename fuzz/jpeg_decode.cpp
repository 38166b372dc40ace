// The tool's own JPEG decoder (jpeg_cpu_codec.hpp, libjpeg-turbo with OpenCV's settings)
// on arbitrary bytes: whatever it decodes, OpenCV's decoder, which it stands in for, must
// decode to the same pixels, stored and turned upright by the EXIF orientation alike.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "codecs/jpeg_cpu_codec.hpp"

namespace {

constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 22;  // a fuzzer's memory, not a photo's

bool same(const cv::Mat& a, const cv::Mat& b) {
  return a.type() == b.type() && a.size() == b.size() && (a.empty() || cv::norm(a, b, cv::NORM_INF) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  for (const bool upright : {false, true}) {
    const std::optional<cv::Mat> ours = gpufilter::io::jpeg_cpu::decode(data, size, upright, kMaxPixels);
    if (!ours) continue;
    if (ours->empty() || (ours->type() != CV_8UC1 && ours->type() != CV_8UC3)) std::abort();
    const std::vector<std::uint8_t> bytes(data, data + size);
    const cv::Mat theirs = cv::imdecode(bytes, upright ? cv::IMREAD_ANYDEPTH | cv::IMREAD_ANYCOLOR : cv::IMREAD_UNCHANGED);
    if (!same(*ours, theirs)) std::abort();
  }
  return 0;
}
