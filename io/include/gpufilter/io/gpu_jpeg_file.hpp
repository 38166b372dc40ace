#pragma once
/// @file
/// A JPEG input file for nvJPEG: its bytes, read whole, and its header, when the header
/// shows a file nvJPEG decodes as OpenCV would (jpeg_markers.hpp). Everything else, and a
/// file that cannot be read, is left to OpenCV's path, which reports errors as before.
#include <filesystem>
#include <optional>
#include <vector>

#include "gpufilter/io/execute.hpp"
#include "gpufilter/registry.hpp"
#include "gpufilter/io/jpeg_markers.hpp"
#include "gpufilter/io/jpeg_file.hpp"

namespace gpufilter::io {

struct GpuJpegFile {
  std::vector<unsigned char> bytes;
  JpegHeader header;
  int orientation = 1;  ///< the EXIF orientation to apply: 1 with --no-autorotate

  /// u8x3 for colour, u8x1 for gray, as OpenCV decodes them.
  PixelFormat format() const;
  /// The decoded image's size once turned upright.
  ImageShape upright_shape() const;
  GpuJpegInput input() const;
};

/// The file's bytes when its header (read before, jpeg_file.hpp) shows a JPEG nvJPEG
/// takes; nullopt for anything else, or a file that cannot be read.
std::optional<GpuJpegFile> read_gpu_jpeg_file(const std::filesystem::path& path, const JpegHeader& header,
                                              bool autorotate);

}  // namespace gpufilter::io
