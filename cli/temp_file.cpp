#include "temp_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <utility>

#include "signal_cleanup.hpp"

namespace gpufilter::cli {
namespace {

// Long enough that the name cannot be guessed, short enough that the whole name stays
// within NAME_MAX (255) with OUT's name cut to kMaxTargetNameInTemp bytes.
constexpr std::size_t kRandomChars = 12;
constexpr std::size_t kMaxTargetNameInTemp = 200;
constexpr int kCreateAttempts = 64;

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

std::string random_suffix() {
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned char bytes[kRandomChars];
  std::size_t filled = 0;
  while (filled < sizeof bytes) {
    const ssize_t got = ::getrandom(bytes + filled, sizeof bytes - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw_errno("cannot get random bytes for a temporary file name");
    }
    filled += static_cast<std::size_t>(got);
  }
  std::string text;
  for (unsigned char byte : bytes) text += kAlphabet[byte % (sizeof kAlphabet - 1)];
  return text;
}

// What a file created now gets (0666 less the umask), as the encoder's own file did.
mode_t default_new_file_mode() {
  // umask() can only be read by setting it; nothing else creates files meanwhile.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

TemporaryFile::TemporaryFile(const std::filesystem::path& target) : target_name_(target.filename().string()) {
  const std::filesystem::path directory = target.parent_path().empty() ? "." : target.parent_path();
  directory_fd_ = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd_ < 0) throw_errno("cannot open the directory " + directory.string());

  // Blocked from before the file exists until the handler knows it, so no signal can
  // leave it behind.
  CleanupSignalsBlocked blocked;
  try {
    for (int attempt = 0; attempt < kCreateAttempts && fd_ < 0; ++attempt) {
      name_ = "." + target_name_.substr(0, kMaxTargetNameInTemp) + ".tmp-" + random_suffix();
      fd_ = ::openat(directory_fd_, name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
      if (fd_ < 0 && errno != EEXIST) break;
    }
    if (fd_ < 0) throw_errno("cannot create a temporary file in " + directory.string());
  } catch (...) {
    ::close(directory_fd_);
    throw;
  }
  struct stat status {};
  ::fstat(fd_, &status);
  device_ = status.st_dev;
  inode_ = status.st_ino;
  path_ = directory / name_;
  watch_ = remove_on_fatal_signal(directory_fd_, name_.c_str(), device_, inode_);
}

TemporaryFile::~TemporaryFile() {
  if (!committed_) remove_if_still_ours();
  forget_on_fatal_signal(std::exchange(watch_, -1));
  if (fd_ >= 0) ::close(fd_);
  ::close(directory_fd_);
}

void TemporaryFile::remove_if_still_ours() noexcept {
  struct stat status {};
  if (::fstatat(directory_fd_, name_.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_dev == device_ &&
      status.st_ino == inode_) {
    ::unlinkat(directory_fd_, name_.c_str(), 0);
  }
}

int TemporaryFile::append(const void* data, std::size_t size) noexcept {
  const auto* bytes = static_cast<const unsigned char*>(data);
  while (size > 0) {
    const ssize_t written = ::write(fd_, bytes, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    bytes += written;
    size -= static_cast<std::size_t>(written);
  }
  return 0;
}

void TemporaryFile::commit() {
  // A replaced OUT keeps its permissions (not set-id bits, which belong to that file).
  struct stat existing {};
  const mode_t mode = ::fstatat(directory_fd_, target_name_.c_str(), &existing, 0) == 0 ? existing.st_mode & 0777
                                                                                        : default_new_file_mode();
  if (::fchmod(fd_, mode) != 0) throw_errno("cannot set the permissions of " + path_.string());
  // Without the fsync a crash soon after the rename can leave an empty OUT on some file
  // systems: the rename reaches the disk before the data.
  // fdatasync: the data and the size, without the timestamps a full fsync also forces.
  if (::fdatasync(fd_) != 0) throw_errno("cannot flush " + path_.string());
  if (::renameat(directory_fd_, name_.c_str(), directory_fd_, target_name_.c_str()) != 0) {
    throw_errno("cannot rename " + path_.string());
  }
  committed_ = true;
  forget_on_fatal_signal(std::exchange(watch_, -1));
  ::fsync(directory_fd_);  // the rename itself; some file systems refuse, which is harmless
}

}  // namespace gpufilter::cli
