#include "gpufilter/io/user_folders.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>

namespace gpufilter::io {

std::optional<std::filesystem::path> user_cache_folder() {
  if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache != nullptr && *cache == '/')
    return std::filesystem::path(cache) / "gpufilter";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/')
    return std::filesystem::path(home) / ".cache" / "gpufilter";
  return std::nullopt;
}

int make_private_directories(const std::filesystem::path& directory) {
  if (::mkdir(directory.c_str(), 0700) == 0 || errno == EEXIST) return 0;
  if (errno == ENOENT && directory.has_parent_path() && directory.parent_path() != directory) {
    if (const int error = make_private_directories(directory.parent_path()); error != 0) return error;
    if (::mkdir(directory.c_str(), 0700) == 0 || errno == EEXIST) return 0;
  }
  return errno;
}

}  // namespace gpufilter::io
