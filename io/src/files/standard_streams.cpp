#include "gpufilter/io/standard_streams.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gpufilter/io/io_error.hpp"
#include "files/write_all.hpp"

namespace gpufilter::io {
namespace {

constexpr const char* kStandardOutputStem = "-";

}  // namespace

std::filesystem::path standard_output_path(const std::string& suffix) { return kStandardOutputStem + suffix; }

bool is_standard_output(const std::filesystem::path& output) {
  return !output.has_parent_path() && output.stem() == kStandardOutputStem && output.has_extension();
}

void write_standard_output(const void* data, std::size_t size, const std::string& what) {
  const int error = write_all(STDOUT_FILENO, data, size);
  // EBADF: the caller closed it (the front holds the number with a placeholder that
  // cannot be written, closed_streams.hpp).
  if (error == EBADF) throw IoError(Fault::Output, "cannot write " + what + ": standard output is closed");
  if (error != 0) throw IoError(Fault::Output, "cannot write " + what + " to standard output: " + std::strerror(error));
}

void write_standard_output(const std::vector<unsigned char>& bytes) {
  write_standard_output(bytes.data(), bytes.size(), "the image");
}

}  // namespace gpufilter::io
