#pragma once
/// @file
/// An input that can be read only once: standard input ('-'), a named pipe, a process
/// substitution (`<(cat a.png)`, /dev/fd/63), a character device. The decoders read by
/// path and more than once (the header, the metadata, then the pixels), so such an input
/// is read here, once, into an anonymous in-memory file whose path stands for it, and it
/// is named as the user named it in messages.
///
/// Reading is bounded: the first bytes must start like an image of a format the tool
/// reads (else it stops there), and the whole may not exceed spool_limit(), the most a
/// file of an image within --max-pixels takes, nor the memory available.
#include <cstdint>
#include <filesystem>
#include <string>

namespace gpufilter::io {

/// Whether `path` names something other than a regular file or a directory (a pipe, a
/// FIFO, a device, a socket), which can be read once only; false where it cannot be
/// looked at (the decoders then report why).
bool reads_once(const std::filesystem::path& path);

/// Whether any argument of a command line (an option's value after '=' too) names such a
/// file. A server reads the command line when it decides whether to take the command, and
/// again when it runs it: such a command runs in the caller's own process.
bool arguments_read_once(int argc, const char* const* argv);

/// The most bytes an input read once may hold for an image of at most `max_pixels`
/// pixels: four float channels uncompressed (16 bytes a pixel) and 64 MiB of metadata.
/// 0 (no pixel limit): no limit but the memory available.
std::uint64_t spool_limit(std::uint64_t max_pixels);

class SpooledInput {
 public:
  /// Standard input. Throws IoError(Input) when it cannot be read, is empty, does not
  /// start like an image, or holds more than `limit` bytes (0: no limit), and
  /// IoError(Runtime) when it does not fit in memory. `max_pixels` is named in the
  /// message about the limit, as the option that raises it.
  SpooledInput(std::uint64_t limit, std::uint64_t max_pixels);
  /// The file at `path` (reads_once()), read as standard input is.
  SpooledInput(const std::filesystem::path& path, std::uint64_t limit, std::uint64_t max_pixels);
  ~SpooledInput();
  SpooledInput(const SpooledInput&) = delete;
  SpooledInput& operator=(const SpooledInput&) = delete;

  /// A path that opens the in-memory file.
  const std::filesystem::path& path() const { return path_; }
  /// `message` with the in-memory file's path named as the input was given
  /// ("standard input", or the path quoted).
  std::string describe(std::string message) const;

 private:
  void spool(int from, std::uint64_t limit, std::uint64_t max_pixels);

  std::string name_;  ///< "standard input", or the path quoted
  int fd_ = -1;
  std::filesystem::path path_;
};

}  // namespace gpufilter::io
