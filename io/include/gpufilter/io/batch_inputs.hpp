#pragma once
/// @file
/// A batch's list of work: the inputs from the command line and --from-file, the shard
/// kept, and each input's output name in --out-dir.
#include <filesystem>
#include <vector>

#include "gpufilter/io/run_request.hpp"

namespace gpufilter::io {

struct BatchItem {
  std::filesystem::path input;
  std::filesystem::path output;
};

/// Throws IoError(Request) for a list that cannot be read or two inputs that would write
/// one output; IoError(Output) when --out-dir is not a writable directory. What concerns
/// one file alone (its output's suffix, an output that is its input) fails that file only.
std::vector<BatchItem> plan_batch(const RunRequest& request);

}  // namespace gpufilter::io
