#include "gpufilter/io/codec_messages.hpp"

#include <cctype>
#include <sstream>

namespace gpufilter::io {
namespace {

// "libpng warning: iCCP: known incorrect sRGB profile": a PNG chunk whose name starts
// with a lower-case letter is ancillary (the PNG specification's naming rule), so the
// pixels do not depend on it.
bool is_ancillary_png_warning(const std::string& line) {
  static const std::string kPrefix = "libpng warning: ";
  if (line.compare(0, kPrefix.size(), kPrefix) != 0 || line.size() < kPrefix.size() + 5) return false;
  const std::string chunk = line.substr(kPrefix.size(), 4);
  for (const char c : chunk)
    if (std::isalpha(static_cast<unsigned char>(c)) == 0) return false;
  return std::islower(static_cast<unsigned char>(chunk[0])) != 0 && line[kPrefix.size() + 4] == ':';
}

// libjpeg's warnings that concern the header's metadata, not the coded pixels.
bool is_jpeg_metadata_warning(const std::string& line) {
  return line.rfind("Warning: unknown JFIF revision number", 0) == 0 ||
         line.rfind("Corrupt JPEG data: bad ICC marker", 0) == 0;
}

std::string trimmed(const std::string& line) {
  std::size_t begin = 0;
  std::size_t end = line.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(line[begin])) != 0) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(line[end - 1])) != 0) --end;
  return line.substr(begin, end - begin);
}

}  // namespace

CodecComplaints sort_codec_messages(const std::string& text) {
  CodecComplaints complaints;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    line = trimmed(line);
    if (line.empty()) continue;
    if (is_ancillary_png_warning(line) || is_jpeg_metadata_warning(line)) {
      complaints.notes.push_back(line);
      continue;
    }
    if (!complaints.damage.empty()) complaints.damage += "; ";
    complaints.damage += line;
  }
  return complaints;
}

}  // namespace gpufilter::io
