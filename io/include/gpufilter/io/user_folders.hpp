#pragma once
/// @file
/// The folder of the tool's per-user state ($XDG_CACHE_HOME/gpufilter, else
/// $HOME/.cache/gpufilter): a place only this user can make, for the server's socket
/// where the default one is taken, and for what the tool remembers between commands.
#include <filesystem>
#include <optional>

namespace gpufilter::io {

/// nullopt where neither variable holds an absolute path.
std::optional<std::filesystem::path> user_cache_folder();

/// Makes `directory` and its missing parents, mode 0700. Returns 0, or the errno.
int make_private_directories(const std::filesystem::path& directory);

}  // namespace gpufilter::io
