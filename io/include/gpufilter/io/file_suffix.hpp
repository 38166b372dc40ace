#pragma once
/// @file
/// What a file name's suffix says, in one place for the codecs, the output checks and the
/// tool (no codec library needed).
#include <filesystem>
#include <string>

namespace gpufilter::io {

/// A path's suffix in lower case (".JPG" -> ".jpg"; empty where it has none).
std::string lower_suffix(const std::filesystem::path& path);
/// The suffix that names OUT's format, in lower case: `format` (--format, ".png") where
/// given, for an OUT whose name has no suffix of its own; else OUT's own suffix.
std::string output_suffix(const std::filesystem::path& output, const std::string& format);
/// Whether a path's suffix names PNG, which the tool's own codec reads and writes (the
/// suffix table, io/src/codecs/image_formats.cpp).
bool is_png_path(const std::filesystem::path& path);
/// Whether a path's suffix names JPEG (.jpg, .jpeg, .jpe).
bool is_jpeg_path(const std::filesystem::path& path);

}  // namespace gpufilter::io
