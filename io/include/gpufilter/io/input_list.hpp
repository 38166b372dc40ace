#pragma once
/// @file
/// A --from-file list read into paths (batch_inputs.hpp plans the batch from them).
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

namespace gpufilter::io {

/// The paths of a --from-file list, one a line: blank lines skipped, a Windows line end
/// tolerated. `source` names the list in messages. Throws IoError(Request) for a line that
/// holds a NUL byte, which no path can contain (it would cut the name short).
std::vector<std::filesystem::path> parse_input_list(std::istream& in, const std::string& source);

}  // namespace gpufilter::io
