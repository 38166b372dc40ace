#pragma once
/// @file
/// Paths that name something through the process that opens them: /proc/self/...,
/// /proc/thread-self/..., /dev/fd/N (a shell's <(...)), /dev/stdin, /dev/stdout,
/// /dev/stderr, and any path whose symbolic links lead into /proc or /dev/fd. A server
/// (server.hpp) would open its own file descriptors and files instead of the caller's,
/// so a command with such an argument runs in the caller's own process.
#include <atomic>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace gpufilter::io {

class ProcessPathCheck {
 public:
  /// Whether `path` (relative ones against the working directory) names something under
  /// /proc or /dev/fd, by its text or through a symbolic link on the way.
  bool through_process(const std::filesystem::path& path);

 private:
  /// `path` with every symbolic link resolved, or nullopt when it leads into /proc or
  /// /dev/fd (or loops). Directories are remembered: a batch's files share them.
  std::optional<std::filesystem::path> resolve(const std::filesystem::path& path, int hops);
  std::map<std::string, std::optional<std::filesystem::path>> directories_;
};

/// Whether any argument of the command line (an option's value after '=' too) names such
/// a path.
bool arguments_through_process(int argc, const char* const* argv);

/// Set by a server while it runs a caller's command. Paths the command finds elsewhere
/// than on its command line (a --from-file list, which the caller could not check without
/// reading it) are then refused where they name a file through the process: the server's
/// own file would be read instead of the caller's.
std::atomic<bool>& serving_a_caller();

/// Throws IoError(Request) naming `path` and `where` it came from, when serving_a_caller()
/// and `path` names a file through the process.
void refuse_process_path_in_server(const std::filesystem::path& path, ProcessPathCheck& check,
                                   const std::string& where);

}  // namespace gpufilter::io
