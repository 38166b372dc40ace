#pragma once
// The line that says a run falls back to the CPU because no GPU is usable. On a machine
// that has none, every command would print it: it shows once a user and reason (kept in
// user_folders.hpp's folder), and again when the reason changes (a driver installed but
// too old, a GPU hidden by CUDA_VISIBLE_DEVICES).
#include <string>

namespace gpufilter::io {

// The notice for `reason`, or "" where this user was told this reason before.
std::string no_gpu_notice(const std::string& reason);

}  // namespace gpufilter::io
