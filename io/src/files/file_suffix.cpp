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

}  // namespace gpufilter::io
