#pragma once
/// @file
/// A fast PNG decoder for the common files: non-interlaced 8- or 16-bit gray, gray+alpha,
/// RGB or RGBA without tRNS. The IDAT stream is inflated in one go (libdeflate where the
/// build found it, else zlib) and the rows are reconstructed on several threads wherever
/// a row filtered with None or Sub starts a run of rows that needs nothing above it.
///
/// The image comes out exactly as cv::imdecode(IMREAD_UNCHANGED) gives it: B, G, R(, A)
/// order (R, G, B(, A) on request), gray+alpha as 4 channels with gray in the first three,
/// 16-bit in native byte order. Anything else (palettes, low bit depths, interlacing, tRNS)
/// and any damage the decoder notices is declined, for the caller to hand the file to
/// libpng (png_libpng_reader.hpp), which then decodes it or reports the damage in its own
/// words.
#include <cstddef>
#include <cstdint>
#include <string>

#include <opencv2/core/mat.hpp>

namespace gpufilter::io {

struct PngReadOptions {
  bool bgr_order = true;  ///< B, G, R(, A) as OpenCV; false: R, G, B(, A)
  unsigned threads = 0;   ///< 0: one per core
};

struct PngDecodeResult {
  cv::Mat image;          ///< empty when declined
  std::string declined;   ///< why, for tests and diagnostics; empty on success
};

/// Whether `data` starts with the PNG signature.
bool looks_like_png(const std::uint8_t* data, std::size_t size);

PngDecodeResult decode_png(const std::uint8_t* data, std::size_t size, const PngReadOptions& options);

/// Reads the file at `path` and decodes it; declined (with the reason) when the file cannot
/// be read or is not a PNG, after reading only its first bytes in the latter case.
PngDecodeResult read_png_file(const std::string& path, const PngReadOptions& options);

}  // namespace gpufilter::io
