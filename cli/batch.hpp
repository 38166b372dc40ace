#pragma once
// Many files through one op (gpufilter OP IN... --out-dir DIR): a pool of threads decodes
// and encodes on the CPU cores while the GPUs' workspaces run the op, so the stages of
// different files overlap. A file that fails is named and skipped; the rest finish.
#include "arguments.hpp"
#include "exit_codes.hpp"

namespace gpufilter::cli {

// Runs the batch in request.batch; returns Ok when every file was written, else the exit
// code of the first failure. Throws CliError for what stops the whole batch before it
// starts (an unreadable list, a missing --out-dir, no GPU with --device gpu).
ExitCode run_batch(const RunRequest& request);

}  // namespace gpufilter::cli
