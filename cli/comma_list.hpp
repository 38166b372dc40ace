#pragma once
// Splitting an option's "a,b,c" value into its parts (empty parts kept, so "1,,2" is
// three parts and the caller's check of each reports the empty one).
#include <string>
#include <vector>

namespace gpufilter::cli {

inline std::vector<std::string> comma_separated(const std::string& text) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    parts.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

}  // namespace gpufilter::cli
