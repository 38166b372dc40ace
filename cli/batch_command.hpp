#pragma once
// gpufilter OP IN... --out-dir DIR: the batch planned and run by gpufilter_io (batch.hpp),
// with a progress line on a terminal and the closing summary on stderr.
#include "arguments.hpp"
#include "exit_codes.hpp"

namespace gpufilter::cli {

// Runs the batch in request.batch; returns Ok when every file was written, else the exit
// code of the first failure. Throws io::IoError for what stops the whole batch before it
// starts (an unreadable list, a missing --out-dir, no GPU with --device gpu).
ExitCode run_batch_command(const io::RunRequest& request);

}  // namespace gpufilter::cli
