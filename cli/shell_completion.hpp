#pragma once
// Shell completion scripts for bash and zsh, generated from the registry and the options
// the parser reads: `gpufilter completion bash|zsh` prints one, the build installs both.
// They complete ops (and ops after ':' or `help`), each op's options, the values of
// options that take one of a fixed list, and file names elsewhere.
#include <string>

namespace gpufilter::cli {

std::string bash_completion();
std::string zsh_completion();

}  // namespace gpufilter::cli
