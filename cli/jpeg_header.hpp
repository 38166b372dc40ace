#pragma once
// What the tool learns from a JPEG's header segments, read once before decoding: its
// size (for the pixel limit), its EXIF orientation, and the metadata segments a
// JPEG-to-JPEG run carries into OUT (EXIF and the ICC colour profile).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace gpufilter::cli {

using JpegSegment = std::vector<unsigned char>;  // a whole segment: FF, marker, length, payload

struct JpegHeader {
  std::uint64_t width = 0;
  std::uint64_t height = 0;
  int precision = 8;      // bits per sample (8, or 12 in extended JPEG)
  int components = 0;     // 1 gray, 3 YCbCr, 4 CMYK/YCCK
  bool progressive = false;
  bool arithmetic = false;  // arithmetic-coded frames (SOF9..SOF15)
  int orientation = 1;    // EXIF orientation 1..8; 1 when the file has none
  // APP1 "Exif" and APP2 "ICC_PROFILE" segments, in file order.
  std::vector<JpegSegment> metadata;
};

// nullopt when the file is not a JPEG or its header is cut short before the first frame.
std::optional<JpegHeader> read_jpeg_header(const std::filesystem::path& path);

// The orientation tag of an APP1 Exif segment, or 1 when it has none or is malformed.
int exif_orientation(const JpegSegment& segment);

// Sets an APP1 Exif segment's orientation tag to 1 (upright), for pixels already turned
// upright; segments without the tag are left as they are.
void reset_exif_orientation(JpegSegment& segment);

// Inserts `segments` into the encoded JPEG `jpeg` after SOI and a leading APP0 (JFIF),
// where readers look for them. Does nothing to data that does not start with SOI.
void insert_jpeg_segments(std::vector<unsigned char>& jpeg, const std::vector<JpegSegment>& segments);

}  // namespace gpufilter::cli
