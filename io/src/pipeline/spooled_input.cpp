#include "gpufilter/io/spooled_input.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "gpufilter/io/io_error.hpp"
#include "files/host_memory.hpp"
#include "codecs/image_signatures.hpp"
#include "files/quoted_path.hpp"
#include "files/write_all.hpp"

namespace gpufilter::io {
namespace {

constexpr std::uint64_t kMetadataAllowance = std::uint64_t{64} << 20;
constexpr std::uint64_t kMostBytesPerPixel = 16;  // four float channels
// How often the memory available is looked at while reading, and the least it must
// leave: the in-memory file takes memory that cannot be reclaimed.
constexpr std::uint64_t kMemoryCheckStep = std::uint64_t{64} << 20;

struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

// Up to `size` bytes, fewer only at the end of the input; throws IoError(Input) naming
// `name` when reading fails.
std::size_t read_some(int from, unsigned char* data, std::size_t size, const std::string& name) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::read(from, data + done, size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw IoError(Fault::Input, "cannot read " + name + ": " + std::strerror(errno));
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

}  // namespace

bool reads_once(const std::filesystem::path& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return false;
  return !S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode);
}

bool arguments_read_once(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    const std::size_t equals = arg.rfind("--", 0) == 0 ? arg.find('=') : std::string_view::npos;
    const std::string_view value = equals != std::string_view::npos ? arg.substr(equals + 1) : arg;
    if (value.empty() || value == "-") continue;
    if (reads_once(std::string(value))) return true;
  }
  return false;
}

std::uint64_t spool_limit(std::uint64_t max_pixels) {
  if (max_pixels == 0) return 0;
  const std::uint64_t pixel_bytes = saturating_product({max_pixels, kMostBytesPerPixel});
  const std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  return pixel_bytes > most - kMetadataAllowance ? most : pixel_bytes + kMetadataAllowance;
}

SpooledInput::SpooledInput(std::uint64_t limit, std::uint64_t max_pixels) : name_("standard input") {
  spool(STDIN_FILENO, limit, max_pixels);
}

SpooledInput::SpooledInput(const std::filesystem::path& path, std::uint64_t limit, std::uint64_t max_pixels)
    : name_(quoted(path)) {
  // A named pipe: this waits for its writer, as any reader of it does.
  const int from = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (from < 0) throw IoError(Fault::Input, "cannot read " + name_ + ": " + std::strerror(errno));
  const FdCloser closer{from};
  spool(from, limit, max_pixels);
}

void SpooledInput::spool(int from, std::uint64_t limit, std::uint64_t max_pixels) {
  std::vector<unsigned char> buffer(1 << 20);
  // The first bytes say whether this can be an image at all: a stream of anything else
  // (`head -c 2G /dev/zero`) is refused before it is held.
  std::size_t got = read_some(from, buffer.data(), kImageSignatureBytes, name_);
  if (got == 0) throw IoError(Fault::Input, name_ + " is empty: no image to read");
  if (!starts_like_image(buffer.data(), got)) {
    throw IoError(Fault::Input, "cannot decode " + name_ + ": it does not start like an image file (" +
                                    image_signature_formats() + ")");
  }
  fd_ = ::memfd_create("gpufilter-input", MFD_CLOEXEC);
  if (fd_ < 0) throw IoError(Fault::Runtime, "cannot hold " + name_ + ": " + std::strerror(errno));
  FdCloser on_failure{fd_};
  std::uint64_t total = 0;
  std::uint64_t next_memory_check = 0;
  while (got > 0) {
    total += got;
    if (limit != 0 && total > limit) {
      throw IoError(Fault::Input, name_ + " holds more than " + byte_count(limit) +
                                      ", more than a file of an image within --max-pixels (" +
                                      std::to_string(max_pixels) + " pixels) takes; --max-pixels N raises the limit");
    }
    if (total >= next_memory_check) {
      const std::optional<std::uint64_t> available = available_host_memory();
      if (available && *available < kMemoryCheckStep * 2) {
        throw IoError(Fault::Runtime, "not enough host memory to hold " + name_ + ": " + byte_count(total) +
                                          " read so far, " + byte_count(*available) + " available");
      }
      next_memory_check = total + kMemoryCheckStep;
    }
    if (const int error = write_all(fd_, buffer.data(), got); error != 0)
      throw IoError(Fault::Runtime, "cannot hold " + name_ + ": " + std::strerror(error));
    got = read_some(from, buffer.data(), buffer.size(), name_);
  }
  on_failure.fd = -1;
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

SpooledInput::~SpooledInput() {
  if (fd_ >= 0) ::close(fd_);
}

// The messages name a path as quoted() writes it.
std::string SpooledInput::describe(std::string message) const {
  const std::string spool = quoted(path_);
  for (std::size_t at = message.find(spool); at != std::string::npos; at = message.find(spool, at + name_.size()))
    message.replace(at, spool.size(), name_);
  return message;
}

}  // namespace gpufilter::io
