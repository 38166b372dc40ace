// The codec module: OpenCV's imgcodecs behind the table in codec_module.hpp.
#include "codecs/codec_module.hpp"

#include <opencv2/imgcodecs.hpp>

namespace {

bool have_writer(const std::string& filename) { return cv::haveImageWriter(filename); }

bool encode(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
            const std::vector<int>& params) {
  return cv::imencode(suffix, image, bytes, params);
}

cv::Mat decode(const std::vector<unsigned char>& bytes, int flags) { return cv::imdecode(bytes, flags); }

cv::Mat read(const std::string& path, int flags) { return cv::imread(path, flags); }

const gpufilter::io::CodecModule kModule{gpufilter::io::kCodecModuleVersion, have_writer, encode, decode, read};

}  // namespace

extern "C" __attribute__((visibility("default"))) const gpufilter::io::CodecModule* gpufilter_codec_module() {
  return &kModule;
}
