#pragma once
/// @file
/// A JPEG input's header read from its file before decoding: its size for the pixel limit,
/// its EXIF orientation and what decides nvJPEG (jpeg_markers.hpp parses it). The metadata
/// a run carries into OUT is image_metadata.hpp's, for every format.
#include <filesystem>
#include <optional>

#include "gpufilter/io/jpeg_markers.hpp"

namespace gpufilter::io {

/// Whether the file's first bytes are a JPEG's (SOI, then a marker).
bool starts_like_jpeg(const std::filesystem::path& path);

/// The whole file, where it starts like a JPEG; nullopt where it does not, or cannot be read.
std::optional<std::vector<unsigned char>> read_jpeg_file(const std::filesystem::path& path);

/// The header segments up to the first scan, read without the compressed data; nullopt
/// when the file is not a JPEG or breaks off before its frame header.
std::optional<JpegHeader> read_jpeg_header(const std::filesystem::path& path);

}  // namespace gpufilter::io
