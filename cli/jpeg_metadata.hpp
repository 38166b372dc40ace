#pragma once
// A JPEG input's header read from its file before decoding (its size for the pixel
// limit, its EXIF orientation), and the metadata a JPEG-to-JPEG run carries into OUT:
// the EXIF and ICC colour-profile segments (jpeg_markers.hpp parses them).
#include <filesystem>
#include <optional>
#include <vector>

#include "jpeg_markers.hpp"

namespace gpufilter::cli {

// Whether the file's first bytes are a JPEG's (SOI, then a marker).
bool starts_like_jpeg(const std::filesystem::path& path);

// Whether OUT's suffix names a JPEG (.jpg, .jpeg, .jpe, any case).
bool is_jpeg_output(const std::filesystem::path& output);

// The header segments up to the first scan, read without the compressed data; nullopt
// when the file is not a JPEG or breaks off before its frame header.
std::optional<JpegHeader> read_jpeg_header(const std::filesystem::path& path);

// Sets an APP1 Exif segment's orientation tag to 1 (upright), for pixels already turned
// upright; other segments, and Exif without the tag, are left as they are.
void reset_exif_orientation(JpegSegment& segment);

// Inserts `segments` into the encoded JPEG `jpeg` after SOI and a leading APP0 (JFIF),
// where readers look for them. Does nothing to data that does not start with SOI.
void insert_jpeg_segments(std::vector<unsigned char>& jpeg, const std::vector<JpegSegment>& segments);

}  // namespace gpufilter::cli
