#include "gray_alpha_png.hpp"

#include <cstring>
#include <exception>
#include <vector>

#include "codecs.hpp"
#include "png_writer.hpp"

namespace gpufilter::cli {

std::string write_gray_alpha_png(const cv::Mat& bgra, std::optional<int> compression, TemporaryFile& file) {
  if (!png_writer_takes(bgra, true)) return "a gray+alpha PNG holds 8- or 16-bit pixels from a 4-channel image";
  PngWriteOptions options;
  options.compression = compression;
  options.gray_alpha = true;
  options.threads = codecs::threads_per_file();
  std::vector<std::uint8_t> bytes;
  try {
    bytes = encode_png(bgra, options);
  } catch (const std::exception& error) {
    return error.what();
  }
  const int error = file.append(bytes.data(), bytes.size());
  return error == 0 ? std::string() : std::strerror(error);
}

}  // namespace gpufilter::cli
