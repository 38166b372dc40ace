#pragma once
/// @file
/// Writing an image with alpha into a format that has none (JPEG, PNM): the pixels are
/// composited onto a background colour, as an image viewer shows them on that colour,
/// instead of refusing the file or dropping alpha and showing what lay under it.
#include <array>
#include <string>

#include <opencv2/core/mat.hpp>

namespace gpufilter::io {

/// An RGB colour in 0..1, and its name for messages.
struct Background {
  std::array<double, 3> rgb{1.0, 1.0, 1.0};  ///< white
  std::string name = "white";
};

/// `bgra` (8- or 16-bit, 4 channels, OpenCV's BGRA order) over `background`, as BGR of the
/// same depth: colour * alpha + background * (1 - alpha), rounded.
cv::Mat flatten_onto(const cv::Mat& bgra, const Background& background);

}  // namespace gpufilter::io
