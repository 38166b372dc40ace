#pragma once
// A temporary file beside the final output, so the final rename is atomic (same file
// system) and OUT is either the old file or the complete new one, never a partial write.
#include <filesystem>

namespace gpufilter::cli {

class TemporaryFile {
 public:
  // ".out.png.tmp-<pid>.png" beside `target`: hidden, unique to this process, and ending in
  // the target's suffix because the encoder is chosen by suffix.
  explicit TemporaryFile(const std::filesystem::path& target);
  // Removes the file unless commit() succeeded.
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const std::filesystem::path& path() const noexcept { return path_; }
  // Flushes the file to disk and renames it onto the target; throws std::filesystem_error.
  void commit();

 private:
  std::filesystem::path path_;
  std::filesystem::path target_;
  bool committed_ = false;
};

}  // namespace gpufilter::cli
