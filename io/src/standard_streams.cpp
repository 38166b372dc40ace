#include "gpufilter/io/standard_streams.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gpufilter/io/io_error.hpp"
#include "quoted_path.hpp"
#include "write_all.hpp"

namespace gpufilter::io {
namespace {

constexpr const char* kStandardOutputStem = "-";

}  // namespace

std::filesystem::path standard_output_path(const std::string& suffix) { return kStandardOutputStem + suffix; }

bool is_standard_output(const std::filesystem::path& output) {
  return !output.has_parent_path() && output.stem() == kStandardOutputStem && output.has_extension();
}

void write_standard_output(const std::vector<unsigned char>& bytes) {
  if (const int error = write_all(STDOUT_FILENO, bytes.data(), bytes.size()); error != 0)
    throw IoError(Fault::Output, std::string("cannot write the image to standard output: ") + std::strerror(error));
}

SpooledStandardInput::SpooledStandardInput() {
  fd_ = ::memfd_create("gpufilter-stdin", MFD_CLOEXEC);
  if (fd_ < 0) throw IoError(Fault::Input, std::string("cannot hold standard input: ") + std::strerror(errno));
  std::vector<unsigned char> buffer(1 << 20);
  std::size_t total = 0;
  for (;;) {
    const ssize_t got = ::read(STDIN_FILENO, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int error = errno;
      ::close(fd_);
      throw IoError(Fault::Input, std::string("cannot read standard input: ") + std::strerror(error));
    }
    if (got == 0) break;
    if (const int error = write_all(fd_, buffer.data(), static_cast<std::size_t>(got)); error != 0) {
      ::close(fd_);
      throw IoError(Fault::Runtime, std::string("cannot hold standard input: ") + std::strerror(error));
    }
    total += static_cast<std::size_t>(got);
  }
  if (total == 0) {
    ::close(fd_);
    throw IoError(Fault::Input, "standard input is empty: no image to read from '-'");
  }
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

SpooledStandardInput::~SpooledStandardInput() {
  if (fd_ >= 0) ::close(fd_);
}

// The messages name a path as quoted() writes it.
std::string SpooledStandardInput::describe(std::string message) const {
  const std::string spool = quoted(path_);
  for (std::size_t at = message.find(spool); at != std::string::npos; at = message.find(spool, at))
    message.replace(at, spool.size(), "standard input");
  return message;
}

}  // namespace gpufilter::io
