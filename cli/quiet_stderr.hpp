#pragma once
// Codec libraries (libpng, libtiff, OpenCV's own fallbacks) print their complaints straight
// to stderr; the tool reports every failure itself, as one line. While any QuietStderr is
// alive, file descriptor 2 points at /dev/null. A batch decodes on several threads at
// once, so the silence is counted: it ends when the last QuietStderr goes, and the tool's
// own lines go through write_stderr(), which reaches the real stderr throughout.
#include <string>

namespace gpufilter::cli {

class QuietStderr {
 public:
  QuietStderr();
  ~QuietStderr();
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;
};

// Writes `text` to the stderr the tool started with, quiet or not.
void write_stderr(const std::string& text);

}  // namespace gpufilter::cli
