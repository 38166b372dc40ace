#include "tool_library.hpp"

#include <limits.h>
#include <unistd.h>

#include <string>

#ifndef GPUFILTER_TOOL_LIBRARY_NAME
#error "GPUFILTER_TOOL_LIBRARY_NAME must name the tool library's file"
#endif
#ifndef GPUFILTER_TOOL_LIBRARY_INSTALL_DIR
#error "GPUFILTER_TOOL_LIBRARY_INSTALL_DIR must name its installed directory, relative to the program's"
#endif

namespace gpufilter::cli {

std::filesystem::path tool_library_path() {
  char path[PATH_MAX];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return {};
  const std::filesystem::path here = std::filesystem::path(std::string(path, static_cast<std::size_t>(length))).parent_path();
  for (const std::filesystem::path& candidate :
       {here / GPUFILTER_TOOL_LIBRARY_NAME, here / GPUFILTER_TOOL_LIBRARY_INSTALL_DIR / GPUFILTER_TOOL_LIBRARY_NAME}) {
    std::error_code error;
    if (std::filesystem::exists(candidate, error)) return candidate;
  }
  return {};
}

}  // namespace gpufilter::cli
