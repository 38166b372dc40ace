#pragma once
// The image formats the tool knows by file suffix, one entry a suffix, in the order they
// are offered in messages: what each suffix names and what the tool does with it. A new
// format's suffix is one entry here; its reading and writing are the codecs' (codecs.hpp).
#include <string>
#include <vector>

namespace gpufilter::io {

enum class ImageFormat { Png, Jpeg, Tiff, Bmp, WebP, Pnm, Pfm, Exr, Hdr };

struct SuffixEntry {
  const char* suffix;  // lower case, with its dot
  ImageFormat format;
  bool offered;          // listed where a message names the suffixes OUT may have
  bool lossless_choice;  // suggested where OUT's format cannot hold the pixels
  bool from_content;     // chosen for a suffix-less OUT from IN's first bytes
};

// Every entry, in the order messages list them.
const std::vector<SuffixEntry>& suffix_entries();
// The entry of a lower-case suffix (".jpeg"); nullptr for a suffix the table lacks.
const SuffixEntry* suffix_entry(const std::string& suffix);
// The suffixes whose entries `wanted` picks, in the table's order.
template <class Wanted>
std::vector<std::string> suffixes_where(Wanted wanted) {
  std::vector<std::string> suffixes;
  for (const SuffixEntry& entry : suffix_entries())
    if (wanted(entry)) suffixes.emplace_back(entry.suffix);
  return suffixes;
}

}  // namespace gpufilter::io
