#pragma once
// The interface between the tool and its codec module (libgpufilter_codecs.so), which
// alone links OpenCV's imgcodecs. Both sides are built together from this header.
#include <opencv2/core.hpp>

#include <string>
#include <vector>

namespace gpufilter::io {

// Bumped whenever a member changes, so a stale module from another build is refused.
inline constexpr int kCodecModuleVersion = 1;

struct CodecModule {
  int version = kCodecModuleVersion;
  bool (*have_writer)(const std::string& filename);
  bool (*encode)(const std::string& suffix, const cv::Mat& image, std::vector<unsigned char>& bytes,
                 const std::vector<int>& params);
  cv::Mat (*decode)(const std::vector<unsigned char>& bytes, int flags);
  cv::Mat (*read)(const std::string& path, int flags);
};

}  // namespace gpufilter::io

// The module's one entry point, found with dlsym.
extern "C" const gpufilter::io::CodecModule* gpufilter_codec_module();
