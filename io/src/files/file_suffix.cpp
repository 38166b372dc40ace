#include "gpufilter/io/file_suffix.hpp"

#include <algorithm>
#include <cctype>

namespace gpufilter::io {

std::string lower_suffix(const std::filesystem::path& path) {
  std::string suffix = path.extension().string();
  std::transform(suffix.begin(), suffix.end(), suffix.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return suffix;
}

std::string output_suffix(const std::filesystem::path& output, const std::string& format) {
  return lower_suffix(format.empty() ? output : std::filesystem::path("image" + format));
}

bool is_png_path(const std::filesystem::path& path) { return lower_suffix(path) == ".png"; }

bool is_jpeg_path(const std::filesystem::path& path) {
  const std::string suffix = lower_suffix(path);
  return suffix == ".jpg" || suffix == ".jpeg" || suffix == ".jpe";
}

}  // namespace gpufilter::io
