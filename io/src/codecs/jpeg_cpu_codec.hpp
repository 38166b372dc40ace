#pragma once
// JPEG on the CPU through libjpeg(-turbo) directly, the library OpenCV's codec module uses
// for JPEG, with the settings OpenCV gives it: the same pixels and the same bytes, without
// loading libopencv_imgcodecs and the ~120 libraries it brings (docs/cpu-path.md,
// "Start-up, libraries and pages"). It takes the common files only and declines the rest;
// codecs.cpp then hands those to OpenCV, which decodes them or says why it cannot.
#include <opencv2/core.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gpufilter::io::jpeg_cpu {

// Whether this build has the direct path (libjpeg found at configure time).
bool available();

// An 8-bit gray or three-component (YCbCr or RGB) JPEG, decoded as OpenCV decodes it:
// CV_8UC1 or BGR CV_8UC3; `upright` turns it by its EXIF orientation as OpenCV does.
// nullopt where it declines: other JPEGs (CMYK, 12-bit, two components), more pixels
// than `max_pixels`, or any libjpeg warning or error (a truncated or damaged file).
std::optional<cv::Mat> decode(const unsigned char* data, std::size_t size, bool upright, std::uint64_t max_pixels);

// 8-bit gray, BGR or BGRA (alpha dropped) encoded as OpenCV's encoder does with
// IMWRITE_JPEG_QUALITY `quality` and its defaults otherwise. With `threads` > 1 and
// enough rows, bands of whole MCU rows are encoded on that many cores and joined with
// restart markers: the bytes OpenCV writes with IMWRITE_JPEG_RST_INTERVAL set to a band's
// MCUs, the same coefficients, so the same pixels decoded as without. False where it
// declines (another depth or channel count) or libjpeg fails; `bytes` is then unspecified.
bool encode(const cv::Mat& image, int quality, std::vector<unsigned char>& bytes, int threads = 1);

}  // namespace gpufilter::io::jpeg_cpu
