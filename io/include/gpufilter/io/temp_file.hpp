#pragma once
/// @file
/// A new file beside the final output, renamed onto it once complete. The rename is atomic
/// (same file system), so OUT is either the old file or the complete new one, never a
/// partial write. Nobody else can choose or redirect the file: it is created exclusively
/// (O_CREAT | O_EXCL | O_NOFOLLOW) under a random name, readable by its owner alone until
/// commit(), and only that very file is ever removed. OUT's last component is never
/// followed: a symbolic link at OUT is itself replaced, never the file it points to.
#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <string>

namespace gpufilter::io {

/// What a file created now gets: 0666 less the umask, read without changing it (so that
/// threads committing side by side, and a server applying each caller's umask, agree).
mode_t default_new_file_mode();

class TemporaryFile {
 public:
  /// Creates ".<OUT's name>.tmp-<random>" in `target`'s directory, mode 0600. From then
  /// until commit() or destruction, a SIGINT, SIGTERM, SIGHUP or SIGPIPE removes it.
  /// Throws std::system_error.
  explicit TemporaryFile(const std::filesystem::path& target);
  /// Removes the file unless commit() succeeded, and only while the name still holds it.
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }
  /// Writes all of `data` at the end of the file: 0, or the errno of the failure. It
  /// never throws, so C libraries may call it from their output callbacks.
  int append(const void* data, std::size_t size) noexcept;
  /// Gives the file OUT's permissions (an existing OUT's, else those of any new file),
  /// flushes it to disk and renames it onto OUT. Unless `replace_existing`, the rename
  /// fails with EEXIST when OUT exists by then (checked atomically, not beforehand).
  /// Throws std::system_error.
  void commit(bool replace_existing);

 private:
  void remove_if_still_ours() noexcept;

  int directory_fd_ = -1;
  int fd_ = -1;
  int watch_ = -1;  ///< the signal handler's slot for this file
  std::string name_;
  std::string target_name_;
  std::filesystem::path path_;
  dev_t device_ = 0;
  ino_t inode_ = 0;
  bool committed_ = false;
};

}  // namespace gpufilter::io
