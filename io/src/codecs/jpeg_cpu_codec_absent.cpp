// The build without libjpeg's headers: every JPEG goes through OpenCV's codec module.
#include "codecs/jpeg_cpu_codec.hpp"

namespace gpufilter::io::jpeg_cpu {

bool available() { return false; }

std::optional<cv::Mat> decode(const unsigned char*, std::size_t, bool, std::uint64_t) { return std::nullopt; }

bool encode(const cv::Mat&, int, std::vector<unsigned char>&, int) { return false; }

}  // namespace gpufilter::io::jpeg_cpu
