#pragma once
// Codec libraries (libpng, libtiff, OpenCV's own fallbacks) print their complaints straight
// to stderr; the tool reports every failure itself, as one line. While a QuietStderr is
// alive, file descriptor 2 points at /dev/null.

namespace gpufilter::cli {

class QuietStderr {
 public:
  QuietStderr();
  ~QuietStderr();
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

}  // namespace gpufilter::cli
