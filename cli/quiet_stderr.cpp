#include "quiet_stderr.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <mutex>

namespace gpufilter::cli {
namespace {

std::mutex g_mutex;
int g_quiet_count = 0;  // live QuietStderr objects, under g_mutex
int g_saved = -1;       // fd 2 as it was before the first of them, under g_mutex

// A duplicate of fd 2 made while it is still the real stderr: by the first QuietStderr
// (before it redirects) or the first write_stderr, whichever comes first.
int real_stderr() {
  static const int fd = [] {
    const int copy = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    return copy >= 0 ? copy : STDERR_FILENO;
  }();
  return fd;
}

}  // namespace

QuietStderr::QuietStderr() {
  real_stderr();
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_quiet_count++ > 0) return;
  std::cerr.flush();
  std::fflush(stderr);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return;  // then the chatter shows; nothing worse
  g_saved = ::dup(STDERR_FILENO);
  if (g_saved >= 0) ::dup2(null, STDERR_FILENO);
  ::close(null);
}

QuietStderr::~QuietStderr() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (--g_quiet_count > 0 || g_saved < 0) return;
  std::cerr.flush();
  std::fflush(stderr);
  ::dup2(g_saved, STDERR_FILENO);
  ::close(g_saved);
  g_saved = -1;
}

void write_stderr(const std::string& text) {
  std::cerr.flush();
  const int fd = real_stderr();
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      return;
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

}  // namespace gpufilter::cli
