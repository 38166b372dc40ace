#include "quiet_stderr.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace gpufilter::cli {

QuietStderr::QuietStderr() {
  std::cerr.flush();
  std::fflush(stderr);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return;  // then the chatter shows; nothing worse
  saved_ = ::dup(STDERR_FILENO);
  if (saved_ >= 0) ::dup2(null, STDERR_FILENO);
  ::close(null);
}

QuietStderr::~QuietStderr() {
  if (saved_ < 0) return;
  std::cerr.flush();
  std::fflush(stderr);
  ::dup2(saved_, STDERR_FILENO);
  ::close(saved_);
}

}  // namespace gpufilter::cli
