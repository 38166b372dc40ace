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

}  // namespace

QuietStderr::QuietStderr() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_quiet_count++ > 0) return;
  std::cerr.flush();
  std::fflush(stderr);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) return;  // then the chatter shows; nothing worse
  g_saved = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
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
  // Under the lock, so the saved stderr is not closed mid-line. Looked up each time: a
  // server's fd 2 is a different caller's stderr from one command to the next.
  const std::lock_guard<std::mutex> lock(g_mutex);
  const int fd = g_saved >= 0 ? g_saved : STDERR_FILENO;
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
