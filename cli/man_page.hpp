#pragma once
// The manual page, gpufilter(1), in roff, generated from the registry and the options
// the parser reads: `gpufilter man` prints it, the build installs it.
#include <string>

namespace gpufilter::cli {

std::string man_page();

}  // namespace gpufilter::cli
