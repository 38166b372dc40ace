// parse_input_list on arbitrary bytes (a --from-file list): every path it gives is a
// non-empty line of the list, without its line end or a NUL byte, in the list's order;
// a refused list is refused as a request error (the tool's usage error).
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "gpufilter/io/input_list.hpp"
#include "gpufilter/io/io_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::istringstream in(text);
  std::vector<std::filesystem::path> paths;
  try {
    paths = gpufilter::io::parse_input_list(in, "fuzz");
  } catch (const gpufilter::io::IoError& error) {
    if (error.fault() != gpufilter::io::Fault::Request || text.find('\0') == std::string::npos) std::abort();
    return 0;
  }
  if (text.find('\0') != std::string::npos) std::abort();
  // The lines again, each at most one trailing '\r' shorter, blank ones left out.
  std::size_t next = 0;
  std::istringstream again(text);
  for (std::string line; std::getline(again, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (next >= paths.size() || paths[next].string() != line) std::abort();
    ++next;
  }
  if (next != paths.size()) std::abort();
  return 0;
}
