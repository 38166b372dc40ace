#include "gpufilter/io/content_format.hpp"

#include <array>
#include <fstream>
#include <string_view>

namespace gpufilter::io {

std::string suffix_of_content(const std::filesystem::path& path) {
  std::array<char, 16> head{};
  std::ifstream file(path, std::ios::binary);
  if (!file) return "";
  file.read(head.data(), head.size());
  const std::string_view bytes(head.data(), static_cast<std::size_t>(file.gcount()));
  const auto starts = [&](std::string_view magic) { return bytes.substr(0, magic.size()) == magic; };
  if (starts("\x89PNG\r\n\x1a\n")) return ".png";
  if (starts("\xff\xd8\xff")) return ".jpg";
  if (starts(std::string_view("II*\0", 4)) || starts(std::string_view("MM\0*", 4))) return ".tif";
  if (starts("BM")) return ".bmp";
  if (starts("RIFF") && bytes.size() >= 12 && bytes.substr(8, 4) == "WEBP") return ".webp";
  if (starts("v/1\x01")) return ".exr";
  if (starts("#?RADIANCE") || starts("#?RGBE")) return ".hdr";
  if (bytes.size() >= 2 && (bytes[0] == 'P')) {
    switch (bytes[1]) {
      case '1':
      case '4': return ".pbm";
      case '2':
      case '5': return ".pgm";
      case '3':
      case '6': return ".ppm";
      case 'f':
      case 'F': return ".pfm";
      default: break;
    }
  }
  return "";
}

}  // namespace gpufilter::io
