#pragma once
// cv::Mat <-> ImageView for the OpenCV cross-checks (views share the Mat's memory).
#include <opencv2/core.hpp>

#include "gpufilter/image_view.hpp"

namespace gpufilter::testing {

inline int cv_depth(ChannelType type) {
  return type == ChannelType::U8 ? CV_8U : type == ChannelType::U16 ? CV_16U : CV_32F;
}

inline ImageView view_of(cv::Mat& mat, PixelFormat format) {
  return ImageView{mat.data, mat.cols, mat.rows, mat.step[0], format};
}

}  // namespace gpufilter::testing
