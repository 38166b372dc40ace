#include "gpufilter/io/input_list.hpp"

#include "gpufilter/io/io_error.hpp"

namespace gpufilter::io {

std::vector<std::filesystem::path> parse_input_list(std::istream& in, const std::string& source) {
  std::vector<std::filesystem::path> paths;
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find('\0') != std::string::npos) {
      throw IoError(Fault::Request, "line " + std::to_string(number) + " of the list " + source +
                                          " (--from-file) holds a NUL byte; give one path a line");
    }
    if (!line.empty()) paths.emplace_back(line);
  }
  return paths;
}

}  // namespace gpufilter::io
