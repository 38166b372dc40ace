#pragma once
// JPEG bytes for the io tests: random images encoded by OpenCV, and the EXIF and other
// segments the tests put into them.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gpufilter::io::jpeg_test {

using Bytes = std::vector<unsigned char>;

inline cv::Mat random_u8(int rows, int cols, int channels, unsigned seed) {
  cv::Mat image(rows, cols, CV_MAKETYPE(CV_8U, channels));
  cv::RNG rng(seed);
  rng.fill(image, cv::RNG::UNIFORM, 0, 256);
  return image;
}

inline Bytes encode(const cv::Mat& image, std::vector<int> params = {}) {
  Bytes bytes;
  if (!cv::imencode(".jpg", image, bytes, params)) throw std::runtime_error("imencode failed");
  return bytes;
}

// "Exif\0\0", a TIFF header in either byte order, and an IFD0 of `filler` entries before
// the Orientation SHORT.
inline Bytes exif_payload(std::uint16_t orientation, bool little_endian, int filler = 0) {
  Bytes p{'E', 'x', 'i', 'f', 0, 0};
  auto u16 = [&](std::uint16_t v) {
    if (little_endian) {
      p.push_back(static_cast<unsigned char>(v & 0xFF));
      p.push_back(static_cast<unsigned char>(v >> 8));
    } else {
      p.push_back(static_cast<unsigned char>(v >> 8));
      p.push_back(static_cast<unsigned char>(v & 0xFF));
    }
  };
  auto u32 = [&](std::uint32_t v) {
    if (little_endian) {
      u16(static_cast<std::uint16_t>(v & 0xFFFF));
      u16(static_cast<std::uint16_t>(v >> 16));
    } else {
      u16(static_cast<std::uint16_t>(v >> 16));
      u16(static_cast<std::uint16_t>(v & 0xFFFF));
    }
  };
  p.push_back(little_endian ? 'I' : 'M');
  p.push_back(little_endian ? 'I' : 'M');
  u16(42);
  u32(8);  // IFD0 right after the header
  u16(static_cast<std::uint16_t>(filler + 1));
  for (int i = 0; i < filler; ++i) {  // ImageDescription-like entries with other tags
    u16(static_cast<std::uint16_t>(0x010E + i));
    u16(2);
    u32(4);
    u32(0);
  }
  u16(0x0112);
  u16(3);  // SHORT
  u32(1);
  u16(orientation);
  u16(0);
  u32(0);  // no next IFD
  return p;
}

inline Bytes segment(unsigned char marker, const Bytes& payload) {
  const std::size_t length = payload.size() + 2;  // the length field counts itself
  Bytes s(length + 2);
  s[0] = 0xFF;
  s[1] = marker;
  s[2] = static_cast<unsigned char>(length >> 8);
  s[3] = static_cast<unsigned char>(length & 0xFF);
  std::copy(payload.begin(), payload.end(), s.begin() + 4);
  return s;
}

// `jpeg` with `segments` inserted right after SOI.
inline Bytes with_segments_after_soi(Bytes jpeg, const std::vector<Bytes>& segments) {
  std::size_t at = 2;
  for (const Bytes& s : segments) {
    jpeg.insert(jpeg.begin() + static_cast<std::ptrdiff_t>(at), s.begin(), s.end());
    at += s.size();
  }
  return jpeg;
}

}  // namespace gpufilter::io::jpeg_test
