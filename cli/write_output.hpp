#pragma once
// Writing OUT: the image is encoded in memory (by OpenCV, or by libpng for a gray+alpha
// PNG), written into a new temporary file beside OUT and renamed onto it, so OUT is never
// left half written and the encoder never opens a file by name.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core/mat.hpp>

#include "channel_layout.hpp"
#include "jpeg_metadata.hpp"
#include "gpufilter/pixel_format.hpp"

namespace gpufilter::cli {

// How OUT is encoded, from --quality and --png-compression.
struct EncodeOptions {
  int jpeg_quality = 95;                // 1..100, OpenCV's default
  std::optional<int> png_compression;   // 0..9; unset: the encoder's fastest setting
};

// Writes `image` (`format` pixels) to OUT, keeping a gray+alpha layout when OUT is a PNG
// and inserting `jpeg_metadata` (a JPEG input's EXIF and ICC segments) when OUT is a JPEG.
// Throws CliError(Output) and leaves any previous OUT untouched when that fails.
//
// Test hook: with GPUFILTER_TEST_PAUSE_BEFORE_COMMIT_MS=N in the environment, the
// complete temporary file is held N milliseconds before the rename, so that tests can
// signal a run at that moment.
void write_image_atomically(const std::filesystem::path& output, const cv::Mat& image, PixelFormat format,
                            ChannelLayout layout, const EncodeOptions& options = {},
                            const std::vector<JpegSegment>& jpeg_metadata = {});

// Writes an already encoded file (a JPEG nvJPEG made) to OUT the same way: a temporary
// file beside it, renamed onto it. Throws CliError(Output) naming `what` ("JPEG").
void write_encoded_atomically(const std::filesystem::path& output, const std::vector<unsigned char>& bytes,
                              const std::string& what);

}  // namespace gpufilter::cli
