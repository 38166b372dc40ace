#pragma once
// A path as the messages show it: in single quotes, so a name with spaces reads whole.
#include <filesystem>
#include <string>

namespace gpufilter::io {

inline std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

}  // namespace gpufilter::io
