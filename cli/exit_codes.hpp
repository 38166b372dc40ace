#pragma once
// The tool's exit statuses: one per kind of failure, so a script can tell a bad command
// line from a bad input file, an unwritable output or a GPU failure. `gpufilter --help`
// prints this table, so it is the single place they are described.
#include <array>
#include <stdexcept>
#include <string>

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

// Raised anywhere in the tool; main() prints the message as one line and exits with code().
class CliError : public std::runtime_error {
 public:
  CliError(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

}  // namespace gpufilter::cli
