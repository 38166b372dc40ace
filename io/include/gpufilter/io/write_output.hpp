#pragma once
/// @file
/// Writing OUT: the whole file is made in memory first (the pixels encoded by OpenCV, or by
/// the tool's PNG writer for a gray+alpha PNG; then IN's metadata and, in a TIFF, the
/// alpha tag added), and only then written into a new temporary file beside OUT and
/// renamed onto it: OUT is never left half written, the encoder never opens a file by
/// name, and a run killed while encoding leaves no file behind.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core/mat.hpp>

#include "gpufilter/io/channel_layout.hpp"
#include "gpufilter/io/image_metadata.hpp"
#include "gpufilter/pixel_format.hpp"

namespace gpufilter::io {

/// How OUT is encoded and written, from --quality, --png-compression and -y.
struct EncodeOptions {
  int jpeg_quality = 95;                ///< 1..100, OpenCV's default
  std::optional<int> png_compression;   ///< 0..9; unset: the encoder's fastest setting
  bool replace_existing = false;        ///< -y: an existing OUT may be replaced
  /// --format for an OUT whose name has no suffix: its format as a suffix (".png"); empty:
  /// OUT's own suffix names it.
  std::string format;
};

/// Writes `image` (`format` pixels) to OUT, keeping a gray+alpha layout when OUT is a PNG
/// and carrying `metadata` (IN's; null or empty: none) where OUT's format holds it, with
/// its pixel dimensions set to the image's. Throws IoError(Output) and leaves any previous
/// OUT untouched when the image cannot be written. Metadata that cannot be written does
/// not stop the image: OUT is written without it, and the returned text (else empty)
/// holds a one-line "gpufilter: warning: ..." naming OUT for each such problem.
///
/// Test hooks: with GPUFILTER_TEST_PAUSE_BEFORE_COMMIT_MS=N in the environment, the
/// complete temporary file is held N milliseconds before the rename, so that tests can
/// signal a run at that moment; with GPUFILTER_TEST_PAUSE_AFTER_ENCODE_MS=N, the run
/// holds the complete file in memory N milliseconds before the temporary file exists.
std::string write_image_atomically(const std::filesystem::path& output, const cv::Mat& image, PixelFormat format,
                                   ChannelLayout layout, const EncodeOptions& options = {},
                                   const ImageMetadata* metadata = nullptr);

/// Writes an already encoded file (a JPEG nvJPEG made, of a `width` x `height` image) to
/// OUT the same way, with `metadata` as above: a temporary file beside it, renamed onto it
/// (onto an existing OUT only with `replace_existing`). Throws IoError(Output) naming
/// `what` ("JPEG"); returns the metadata warnings as write_image_atomically.
/// `format` as EncodeOptions' names OUT's format where its name has no suffix.
std::string write_encoded_atomically(const std::filesystem::path& output, std::vector<unsigned char> bytes,
                                     const std::string& what, bool replace_existing,
                                     const ImageMetadata* metadata = nullptr, int width = 0, int height = 0,
                                     const std::string& format = "");

}  // namespace gpufilter::io
