#include "gpufilter/io/temp_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <set>
#include <system_error>
#include <utility>

#include "files/signal_cleanup.hpp"
#include "files/write_all.hpp"

namespace gpufilter::io {
namespace {

// Long enough that the name cannot be guessed, short enough that the whole name stays
// within NAME_MAX (255) with OUT's name cut to kMaxTargetNameInTemp bytes.
constexpr std::size_t kRandomChars = 12;
constexpr std::size_t kMaxTargetNameInTemp = 200;
constexpr int kCreateAttempts = 64;
constexpr std::time_t kStaleSeconds = 15 * 60;

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// The random part of a temporary file's name is made of these.
constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

std::string random_suffix() {
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

// The umask as the kernel holds it now (Linux 4.7+), read without changing it: batch
// workers commit side by side, and a server applies each caller's umask in turn.
mode_t current_umask() {
  if (std::FILE* status = std::fopen("/proc/self/status", "re")) {
    char line[256];
    unsigned mask = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, status) != nullptr)
      found = std::sscanf(line, "Umask: %o", &mask) == 1;
    std::fclose(status);
    if (found) return static_cast<mode_t>(mask);
  }
  // Without /proc: read by setting it, once, before any worker thread exists (the first
  // output is checked on the main thread before a batch starts).
  static const mode_t fallback = [] {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
  }();
  return fallback;
}


// Renames `from` onto `to` unless `to` exists, atomically: renameat2's RENAME_NOREPLACE,
// or where the file system lacks it, a hard link (which never replaces) and an unlink.
int rename_without_replacing(int directory_fd, const char* from, const char* to) {
  if (::renameat2(directory_fd, from, directory_fd, to, RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return -1;
  if (::linkat(directory_fd, from, directory_fd, to, 0) != 0) return -1;
  ::unlinkat(directory_fd, from, 0);
  return 0;
}

// A temporary file of this tool: ".<name>.tmp-" and kRandomChars of kAlphabet.
bool is_temporary_name(const char* name) {
  const std::size_t length = std::strlen(name);
  constexpr std::size_t kTail = sizeof(".tmp-") - 1 + kRandomChars;
  if (name[0] != '.' || length < 1 + kTail + 1) return false;
  const char* tail = name + length - kTail;
  if (std::strncmp(tail, ".tmp-", 5) != 0) return false;
  return std::strspn(tail + 5, kAlphabet) == kRandomChars;
}

// Removes temporary files of this tool that a killed run left in the directory (SIGKILL,
// a power cut): this user's, untouched for kStaleSeconds, far longer than any write
// takes (the file is created only once its bytes are encoded). Once per directory and
// process, so a batch pays one scan.
void sweep_stale_temporary_files(int directory_fd) {
  static std::mutex mutex;
  static std::set<std::pair<dev_t, ino_t>> swept;
  struct stat directory {};
  if (::fstat(directory_fd, &directory) != 0) return;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!swept.insert({directory.st_dev, directory.st_ino}).second) return;
  }
  const int listing_fd = ::openat(directory_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing_fd < 0) return;
  DIR* listing = ::fdopendir(listing_fd);
  if (listing == nullptr) {
    ::close(listing_fd);
    return;
  }
  const std::time_t now = std::time(nullptr);
  while (const dirent* entry = ::readdir(listing)) {
    if (!is_temporary_name(entry->d_name)) continue;
    struct stat status {};
    if (::fstatat(directory_fd, entry->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISREG(status.st_mode) && status.st_uid == ::geteuid() && now - status.st_mtime > kStaleSeconds)
      ::unlinkat(directory_fd, entry->d_name, 0);
  }
  ::closedir(listing);
}

}  // namespace

mode_t default_new_file_mode() { return 0666 & ~current_umask(); }

TemporaryFile::TemporaryFile(const std::filesystem::path& target) : target_name_(target.filename().string()) {
  const std::filesystem::path directory = target.parent_path().empty() ? "." : target.parent_path();
  directory_fd_ = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory_fd_ < 0) throw_errno("cannot open the directory " + directory.string());
  sweep_stale_temporary_files(directory_fd_);

  // From before the file exists until the handler knows it: no signal can leave it behind.
  const CreatingWatchedFile creating;
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

int TemporaryFile::append(const void* data, std::size_t size) noexcept { return write_all(fd_, data, size); }

void TemporaryFile::commit(bool replace_existing) {
  // A replaced OUT keeps its permissions (not set-id bits, which belong to that file); a
  // replaced link's target is not looked at.
  struct stat existing {};
  const bool replaces_file = ::fstatat(directory_fd_, target_name_.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0 &&
                             S_ISREG(existing.st_mode);
  const mode_t mode = replaces_file ? existing.st_mode & 0777 : default_new_file_mode();
  if (::fchmod(fd_, mode) != 0) throw_errno("cannot set the permissions of " + path_.string());
  // Without the fsync a crash soon after the rename can leave an empty OUT on some file
  // systems: the rename reaches the disk before the data.
  // fdatasync: the data and the size, without the timestamps a full fsync also forces.
  if (::fdatasync(fd_) != 0) throw_errno("cannot flush " + path_.string());
  const int renamed = replace_existing
                          ? ::renameat(directory_fd_, name_.c_str(), directory_fd_, target_name_.c_str())
                          : rename_without_replacing(directory_fd_, name_.c_str(), target_name_.c_str());
  if (renamed != 0)
    throw_errno(errno == EEXIST ? "it appeared meanwhile (-y replaces an existing OUT)" : "cannot rename " + path_.string());
  committed_ = true;
  forget_on_fatal_signal(std::exchange(watch_, -1));
  ::fsync(directory_fd_);  // the rename itself; some file systems refuse, which is harmless
}

}  // namespace gpufilter::io
