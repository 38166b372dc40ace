#pragma once
/// @file
/// A PNG encoder for the tool's output: rows are converted to PNG's byte order, filtered
/// and deflated in strips on several threads (deflate_strips.hpp), giving one standard
/// zlib stream that every PNG reader opens. Non-interlaced, 8 or 16 bits, gray, gray+alpha,
/// RGB or RGBA. Kept beside libpng/libspng because it deflates strips on all cores (a
/// single file) and picks run-length or full matching per strip (docs: PNG encoder).
#include <cstdint>
#include <optional>
#include <vector>

#include <opencv2/core/mat.hpp>

#include "gpufilter/io/deflate_strips.hpp"

namespace gpufilter::io {

struct PngWriteOptions {
  /// --png-compression: 0 stored; 1..6 zlib's level with its default strategy; 7..9 per
  /// strip the smaller of the default and a capped level-9 search; unset: the tuned
  /// default (PngEncoderTuning in png_writer.cpp). Rows are filtered adaptively but at 0.
  std::optional<int> compression;
  bool gray_alpha = false;  ///< write channels 0 and 3 of a 4-channel image as gray+alpha
  bool bgr_order = true;    ///< the Mat's colour channels are B, G, R(, A), as OpenCV's codecs
  unsigned threads = 0;     ///< 0: one per core
};

/// Whether encode_png takes `image`: 8- or 16-bit with 1, 3 or 4 channels (4 with
/// gray_alpha), at least one pixel.
bool png_writer_takes(const cv::Mat& image, bool gray_alpha);

/// The PNG file's bytes. Throws std::invalid_argument for an image png_writer_takes
/// refuses and std::runtime_error (or std::bad_alloc) when compression fails.
std::vector<std::uint8_t> encode_png(const cv::Mat& image, const PngWriteOptions& options);

/// What encode_png does with a compression setting, spelt out (bench/png_codec compares
/// settings with it; options.compression is ignored).
struct PngEncoding {
  int level = 1;            ///< zlib's 0..9
  int strategy = 0;         ///< zlib's Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE
  unsigned filters = 0x1f;  ///< the row filters to choose among, a bit per type (png_filters.hpp)
  DeflateTune tune{};       ///< zlib's deflateTune; max_chain 0: the level's own search
  /// Other settings for each strip: none; in place of those above where the strip's rows
  /// repeat at a distance (repeat_probe.hpp); or beside them, the smaller output kept.
  enum class Alternative { None, WhereRepeats, Smaller };
  Alternative alternative = Alternative::None;
  DeflateSettings alternative_settings{};
};
PngEncoding png_encoding_for(std::optional<int> compression);
std::vector<std::uint8_t> encode_png(const cv::Mat& image, const PngEncoding& encoding,
                                     const PngWriteOptions& options);

}  // namespace gpufilter::io
