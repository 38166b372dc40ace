#pragma once
// A command in its own process that runs one file uses one GPU, but the CUDA driver
// initialises every GPU it can see at the first CUDA call, so each visible GPU lengthens
// its start (docs/cpu-path.md, "Start-up, libraries and pages"). Where the user chose
// nothing (no --devices, no CUDA_VISIBLE_DEVICES), such a command makes only the first GPU
// visible before CUDA starts: the same device it would have used.
#include "gpufilter/io/run_request.hpp"

namespace gpufilter::cli {

// Before any CUDA call of a single-file command (not a batch, not in a server).
void see_only_the_gpu_it_uses(const io::RunRequest& request);

}  // namespace gpufilter::cli
