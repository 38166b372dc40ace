#include "gpufilter/io/content_format.hpp"

#include <array>
#include <fstream>
#include <set>

#include "codecs/image_signatures.hpp"

namespace gpufilter::io {

std::string suffix_of_content(const std::filesystem::path& path) {
  std::array<unsigned char, kImageSignatureBytes> head{};
  std::ifstream file(path, std::ios::binary);
  if (!file) return "";
  file.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  const std::string suffix = image_format_suffix(head.data(), static_cast<std::size_t>(file.gcount()));
  // Formats the tool reads but does not write (DICOM) or that need their own settings
  // to write (JPEG 2000, Sun raster, PAM) are not chosen for OUT silently.
  static const std::set<std::string> kWritten{".png", ".jpg", ".tif", ".bmp", ".webp", ".pbm",
                                              ".pgm", ".ppm", ".pfm", ".exr", ".hdr"};
  return kWritten.count(suffix) != 0 ? suffix : "";
}

}  // namespace gpufilter::io
