#pragma once
// Paths that name something through the process that opens them: /proc/self/...,
// /proc/thread-self/..., /dev/fd/N (a shell's <(...)), /dev/stdin, /dev/stdout,
// /dev/stderr, and any path whose symbolic links lead into /proc or /dev/fd. A server
// (server.hpp) would open its own file descriptors and files instead of the caller's,
// so a command with such an argument runs in the caller's own process.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace gpufilter::cli {

class ProcessPathCheck {
 public:
  // Whether `path` (relative ones against the working directory) names something under
  // /proc or /dev/fd, by its text or through a symbolic link on the way.
  bool through_process(const std::filesystem::path& path);

 private:
  // `path` with every symbolic link resolved, or nullopt when it leads into /proc or
  // /dev/fd (or loops). Directories are remembered: a batch's files share them.
  std::optional<std::filesystem::path> resolve(const std::filesystem::path& path, int hops);
  std::map<std::string, std::optional<std::filesystem::path>> directories_;
};

// Whether any argument of the command line (an option's value after '=' too) names such
// a path.
bool arguments_through_process(int argc, const char* const* argv);

}  // namespace gpufilter::cli
