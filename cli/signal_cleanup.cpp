#include "signal_cleanup.hpp"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>

namespace gpufilter::cli {
namespace {

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
constexpr std::size_t kSignalCount = std::size(kCleanupSignals);

// What the handler reads. Written only while the signals are blocked in the writing
// thread or before `g_armed` is set, and read with async-signal-safe calls only.
int g_directory_fd = -1;
char g_name[NAME_MAX + 1];
dev_t g_device = 0;
ino_t g_inode = 0;
volatile sig_atomic_t g_armed = 0;

struct sigaction g_previous[kSignalCount];
bool g_installed[kSignalCount] = {};

void remove_pending_file() {
  if (!g_armed) return;
  struct stat status {};
  // Only the file this run created: a name that now holds something else is left alone.
  if (::fstatat(g_directory_fd, g_name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_dev == g_device &&
      status.st_ino == g_inode) {
    ::unlinkat(g_directory_fd, g_name, 0);
  }
  g_armed = 0;
}

extern "C" void remove_pending_and_reraise(int signal_number) {
  const int saved_errno = errno;
  remove_pending_file();
  // End the way the signal would have ended the run without this handler: put the
  // previous disposition back and raise again; the signal is blocked while a handler
  // runs, so it is delivered as soon as this one returns.
  for (std::size_t i = 0; i < kSignalCount; ++i) {
    if (kCleanupSignals[i] == signal_number) ::sigaction(signal_number, &g_previous[i], nullptr);
  }
  ::raise(signal_number);
  errno = saved_errno;
}

sigset_t cleanup_signal_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int signal_number : kCleanupSignals) sigaddset(&set, signal_number);
  return set;
}

bool is_ignored(const struct sigaction& action) {
  return (action.sa_flags & SA_SIGINFO) == 0 && action.sa_handler == SIG_IGN;
}

void install_handlers() {
  struct sigaction action {};
  action.sa_handler = remove_pending_and_reraise;
  action.sa_mask = cleanup_signal_set();  // one cleanup at a time
  for (std::size_t i = 0; i < kSignalCount; ++i) {
    if (g_installed[i]) continue;
    struct sigaction previous {};
    if (::sigaction(kCleanupSignals[i], nullptr, &previous) != 0) continue;
    // An ignored signal would not have ended the run, so it must not end it now.
    if (is_ignored(previous)) continue;
    if (::sigaction(kCleanupSignals[i], &action, &g_previous[i]) == 0) g_installed[i] = true;
  }
}

void restore_handlers() {
  for (std::size_t i = 0; i < kSignalCount; ++i) {
    if (!g_installed[i]) continue;
    ::sigaction(kCleanupSignals[i], &g_previous[i], nullptr);
    g_installed[i] = false;
  }
}

}  // namespace

void remove_on_fatal_signal(int directory_fd, const char* name, dev_t device, ino_t inode) {
  g_armed = 0;
  if (std::strlen(name) >= sizeof g_name) return;  // no such file can exist
  std::strcpy(g_name, name);
  g_directory_fd = directory_fd;
  g_device = device;
  g_inode = inode;
  g_armed = 1;
  install_handlers();
}

void forget_on_fatal_signal() {
  g_armed = 0;
  restore_handlers();
}

CleanupSignalsBlocked::CleanupSignalsBlocked() {
  const sigset_t set = cleanup_signal_set();
  ::pthread_sigmask(SIG_BLOCK, &set, &saved_);
}

CleanupSignalsBlocked::~CleanupSignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }

}  // namespace gpufilter::cli
