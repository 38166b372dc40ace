#include "gpufilter/io/content_format.hpp"

#include <array>
#include <fstream>

#include "codecs/image_formats.hpp"
#include "codecs/image_signatures.hpp"

namespace gpufilter::io {

std::string suffix_of_content(const std::filesystem::path& path) {
  std::array<unsigned char, kImageSignatureBytes> head{};
  std::ifstream file(path, std::ios::binary);
  if (!file) return "";
  file.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  const std::string suffix = image_format_suffix(head.data(), static_cast<std::size_t>(file.gcount()));
  // Only formats the suffix table chooses from content (others are not chosen for OUT silently).
  const SuffixEntry* entry = suffix_entry(suffix);
  return entry != nullptr && entry->from_content ? suffix : "";
}

}  // namespace gpufilter::io
