#include "gpufilter/io/quiet_stderr.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <vector>

#include "files/write_all.hpp"

namespace gpufilter::io {
namespace {

std::shared_mutex g_sharing;  // shared by live captures, exclusive for one alone
// Passed through by every capture on its way in, and held by an exclusive one while it
// waits: new shared captures queue behind it instead of starving it (a busy batch's
// decoders would otherwise always hold the shared side).
std::mutex g_turnstile;
std::mutex g_mutex;
int g_capture_count = 0;  // live captures, under g_mutex
int g_saved = -1;         // fd 2 as it was before the first of them, under g_mutex
int g_log = -1;           // the in-memory log, kept open once made, under g_mutex

long log_size(int fd) {
  struct stat status {};
  return fd >= 0 && ::fstat(fd, &status) == 0 ? static_cast<long>(status.st_size) : 0;
}

}  // namespace

CapturedStderr::CapturedStderr(Sharing sharing) {
  if (sharing == Sharing::Shared) {
    { const std::lock_guard<std::mutex> pass(g_turnstile); }
    shared_ = std::shared_lock<std::shared_mutex>(g_sharing);
  } else {
    const std::lock_guard<std::mutex> pass(g_turnstile);
    exclusive_ = std::unique_lock<std::shared_mutex>(g_sharing);
  }
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_capture_count++ == 0) {
    std::cerr.flush();
    std::fflush(stderr);
    if (g_log < 0) {
      g_log = ::memfd_create("gpufilter-codec-messages", MFD_CLOEXEC);
      // Appended to by every writer, so messages from two threads never overwrite.
      if (g_log >= 0) ::fcntl(g_log, F_SETFL, O_APPEND);
    }
    if (g_log >= 0) {
      g_saved = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
      if (g_saved >= 0) ::dup2(g_log, STDERR_FILENO);
    }
  }
  start_ = log_size(g_log);
}

CapturedStderr::~CapturedStderr() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (--g_capture_count > 0 || g_saved < 0) return;
  std::cerr.flush();
  std::fflush(stderr);
  ::dup2(g_saved, STDERR_FILENO);
  ::close(g_saved);
  g_saved = -1;
  if (::ftruncate(g_log, 0) != 0) {
    // The log then only grows; each capture still reads from its own start.
  }
}

std::string CapturedStderr::text() const {
  std::fflush(stderr);
  int log = -1;
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    log = g_log;
  }
  const long end = log_size(log);
  if (end <= start_) return {};
  std::string text(static_cast<std::size_t>(end - start_), '\0');
  const ssize_t got = ::pread(log, text.data(), text.size(), start_);
  text.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  return text;
}

void write_stderr(const std::string& text) {
  std::cerr.flush();
  // Under the lock, so the saved stderr is not closed mid-line. Looked up each time: a
  // server's fd 2 is a different caller's stderr from one command to the next.
  const std::lock_guard<std::mutex> lock(g_mutex);
  write_all(g_saved >= 0 ? g_saved : STDERR_FILENO, text.data(), text.size());
}

}  // namespace gpufilter::io
