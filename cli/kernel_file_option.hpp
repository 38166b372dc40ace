#pragma once
// convolve's --kernel-file names a file the op reads each time it makes its mask: when
// the command is checked, and again when it runs. A file that can be read once only (a
// pipe, `--kernel-file <(echo "0 -1 0; ...")`) would be empty the second time, so its text
// is read here, once, and handed to the op as --kernel's. A regular file stays a path.
#include "gpufilter/registry.hpp"

namespace gpufilter::cli {

// Replaces a --kernel-file that reads once by its text as --kernel, where --kernel is not
// given too (the op then reports that only one may be). Throws CliError(Usage) where the
// file cannot be read or holds more than any mask's text.
void read_kernel_file_once(ParamValues& given);

}  // namespace gpufilter::cli
