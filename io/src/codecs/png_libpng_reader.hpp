#pragma once
// The PNG files the tool's own reader declines (palettes, bit depths below 8, tRNS,
// interlacing, anything it finds odd), decoded through libpng with the transformations
// OpenCV's PNG decoder asks of it for IMREAD_UNCHANGED: the same pixels, in B, G, R(, A)
// order, 16-bit in native byte order.
//
// What libpng says is sorted by libpng's own rule rather than by the words it uses: a
// problem in an ancillary chunk (tEXt, sPLT, iCCP, ...) is a benign error there, reported
// as a warning while that chunk is read, and leaves the pixels whole: a note. A warning
// while a critical chunk is read (IHDR, PLTE, IDAT, IEND) and any error fail the file.
#include <cstddef>
#include <string>
#include <vector>

#include <opencv2/core/mat.hpp>

namespace gpufilter::io {

struct LibpngDecodeResult {
  cv::Mat image;                   // empty where `damage` says why
  std::string damage;              // libpng's complaints about the pixels, "; " between
  std::vector<std::string> notes;  // its warnings about ancillary chunks, one a line
};

// `max_pixels`: larger images are refused before their pixels are allocated.
LibpngDecodeResult decode_png_with_libpng(const unsigned char* data, std::size_t size, std::uint64_t max_pixels);

}  // namespace gpufilter::io
