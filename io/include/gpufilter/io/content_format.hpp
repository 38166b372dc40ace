#pragma once
/// @file
/// An image file's format as its first bytes show it, for writing OUT '-' in IN's format
/// when no --format names one.
#include <filesystem>
#include <string>

namespace gpufilter::io {

/// The suffix of the format `path`'s first bytes show (".png", ".jpg", ".tif", ".bmp",
/// ".webp", ".pbm", ".pgm", ".ppm", ".pfm", ".exr", ".hdr"); empty where they show none of
/// these or the file cannot be read. Throws nothing.
std::string suffix_of_content(const std::filesystem::path& path);

}  // namespace gpufilter::io
