#include "codecs/gray_alpha_png.hpp"

#include <exception>
#include <vector>

#include "gpufilter/io/codecs.hpp"
#include "gpufilter/io/png_writer.hpp"

namespace gpufilter::io {

std::string encode_gray_alpha_png(const cv::Mat& bgra, std::optional<int> compression,
                                  std::vector<unsigned char>& bytes) {
  if (!png_writer_takes(bgra, true)) return "a gray+alpha PNG holds 8- or 16-bit pixels from a 4-channel image";
  PngWriteOptions options;
  options.compression = compression;
  options.gray_alpha = true;
  options.threads = codecs::threads_per_file();
  try {
    bytes = encode_png(bgra, options);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

}  // namespace gpufilter::io
