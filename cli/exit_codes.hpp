#pragma once
// The tool's exit statuses: one per kind of failure, so a script can tell a bad command
// line from a bad input file, an unwritable output or a GPU failure. `gpufilter --help`
// prints this table, so it is the single place they are described.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "gpufilter/io/io_error.hpp"

namespace gpufilter::cli {

enum class ExitCode : int {
  Ok = 0,
  Usage = 2,
  Input = 3,
  Output = 4,
  Runtime = 5,
};

struct ExitCodeDoc {
  ExitCode code;
  const char* meaning;
};

inline constexpr std::array<ExitCodeDoc, 5> kExitCodeDocs{{
    {ExitCode::Ok, "success"},
    {ExitCode::Usage,
     "usage: unknown op or option, missing argument, bad parameter value or range, unknown "
     "border/variant/device, a border value IN's pixels cannot hold, unsupported output "
     "suffix, OUT is IN without --overwrite"},
    {ExitCode::Input,
     "input: missing, unreadable, corrupt or non-image file, unsupported pixel format"},
    {ExitCode::Output,
     "output: directory missing or not writable, the output format cannot hold the pixels, "
     "the encoder failed"},
    {ExitCode::Runtime,
     "GPU/runtime: no GPU with --device gpu, not enough host or GPU memory for the image, CUDA "
     "error"},
}};

// The exit status for a failure of gpufilter_io: one per fault.
constexpr ExitCode exit_code(io::Fault fault) {
  switch (fault) {
    case io::Fault::Request: return ExitCode::Usage;
    case io::Fault::Input: return ExitCode::Input;
    case io::Fault::Output: return ExitCode::Output;
    case io::Fault::Runtime: return ExitCode::Runtime;
  }
  return ExitCode::Runtime;
}

constexpr io::Fault fault_of(ExitCode code) {
  switch (code) {
    case ExitCode::Usage: return io::Fault::Request;
    case ExitCode::Input: return io::Fault::Input;
    case ExitCode::Output: return io::Fault::Output;
    case ExitCode::Ok:
    case ExitCode::Runtime: break;
  }
  return io::Fault::Runtime;
}

// The tool's own failures, spelt by exit status. main() catches io::IoError, which this
// is one of, prints the message as one line and exits with exit_code(fault()).
class CliError : public io::IoError {
 public:
  CliError(ExitCode code, const std::string& message) : io::IoError(fault_of(code), message) {}
  ExitCode code() const noexcept { return exit_code(fault()); }
};

// How the program ends, whether the front (front.cpp) or the tool ran the command: without
// static destructors and atexit handlers (the CUDA runtime's handler destroys the
// context, tens of milliseconds spent freeing what the OS frees anyway). By then OUT is
// renamed into place and every thread is joined; only the standard streams need flushing.
[[noreturn]] inline void exit_promptly(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

}  // namespace gpufilter::cli
