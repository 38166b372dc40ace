#pragma once
/// @file
/// What codec libraries write to stderr. libjpeg, libpng and OpenCV's fallbacks print
/// their complaints ("Premature end of JPEG file") straight to file descriptor 2, where
/// they would break the tool's one-line messages and, worse, be the only sign that a
/// decoded image is damaged. While any CapturedStderr is alive, descriptor 2 points at an
/// in-memory log instead, and each capture reads back what arrived while it lived; the
/// tool's own lines go through write_stderr(), which reaches the real stderr throughout.
///
/// A batch decodes on several threads at once and descriptor 2 is one for the process,
/// so a shared capture may also hold another thread's message. An exclusive capture
/// waits until no other capture is alive and keeps new ones out meanwhile: what it reads
/// is its own. run_with_codec_messages() uses that to attribute a message to its file.
/// Captures do not nest on one thread (an exclusive one waiting would block the inner).
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>

namespace gpufilter::io {

class CapturedStderr {
 public:
  enum class Sharing { Shared, Exclusive };
  explicit CapturedStderr(Sharing sharing = Sharing::Shared);
  ~CapturedStderr();
  CapturedStderr(const CapturedStderr&) = delete;
  CapturedStderr& operator=(const CapturedStderr&) = delete;

  /// What reached descriptor 2 since this capture began.
  std::string text() const;

 private:
  std::shared_lock<std::shared_mutex> shared_;
  std::unique_lock<std::shared_mutex> exclusive_;
  long start_ = 0;  ///< the log's size when this capture began
};

/// For probes the tool makes itself (can this build write .webp?): their chatter concerns
/// no user file and is dropped.
using QuietStderr = CapturedStderr;

/// Runs `decode` (or an encode) under a shared capture; when anything arrived meanwhile, runs it again
/// alone (exclusive), so the messages returned are the decode's own. Returns the second
/// run's result then: a decoder is deterministic, so it is the same image.
template <class Decode>
auto run_with_codec_messages(Decode&& decode) -> std::pair<decltype(decode()), std::string> {
  {
    CapturedStderr shared;
    auto result = decode();
    if (shared.text().empty()) return {std::move(result), std::string()};
  }
  CapturedStderr alone(CapturedStderr::Sharing::Exclusive);
  auto result = decode();
  return {std::move(result), alone.text()};
}

/// Writes `text` to the stderr the tool started with, captured or not.
void write_stderr(const std::string& text);

}  // namespace gpufilter::io
