#pragma once
/// @file
/// Failures of reading, running and writing, sorted by what was at fault, so that a caller
/// can tell a request that cannot be met from a bad input file, an unwritable output or a
/// failing machine: the command-line tool turns each into its exit status, a binding into
/// its own kind of exception.
#include <stdexcept>
#include <string>

namespace gpufilter::io {

enum class Fault {
  Request,  // what was asked cannot be done as asked: an output suffix no encoder takes, an
            /// output that exists and may not be replaced, a malformed list of inputs
  Input,    // an input missing, unreadable, corrupt, not an image, or of pixels the op refuses
  Output,   // an output folder missing or not writable, a format that cannot hold the pixels
  Runtime,  // no usable GPU, not enough host or GPU memory, a CUDA or system error
};

class IoError : public std::runtime_error {
 public:
  IoError(Fault fault, const std::string& message) : std::runtime_error(message), fault_(fault) {}
  Fault fault() const noexcept { return fault_; }

 private:
  Fault fault_;
};

}  // namespace gpufilter::io
