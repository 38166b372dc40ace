#include "files/signal_cleanup.hpp"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <mutex>

namespace gpufilter::io {
namespace {

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
constexpr std::size_t kSignalCount = std::size(kCleanupSignals);

// What the handler reads: one slot per pending file. A slot is claimed (kClaimed), filled,
// then published (kArmed); the handler touches armed slots only, with async-signal-safe
// calls, and lock-free atomics are safe to read there.
enum SlotState : int { kFree = 0, kClaimed = 1, kArmed = 2 };
constexpr int kSlots = 256;
struct PendingFile {
  std::atomic<int> state{kFree};
  int directory_fd = -1;
  char name[NAME_MAX + 1];
  dev_t device = 0;
  ino_t inode = 0;
};
PendingFile g_pending[kSlots];
static_assert(std::atomic<int>::is_always_lock_free);

std::mutex g_handlers_mutex;  // installing and restoring, never in the handler
int g_watched = 0;            // armed slots and creations under way, under g_handlers_mutex
// Files being created, not yet armed. Their threads block the signals, but the process's
// other threads do not: a signal taken there waits for them (wait_for_creations).
std::atomic<int> g_creating{0};
static_assert(std::atomic<int>::is_always_lock_free);

struct sigaction g_previous[kSignalCount];
bool g_installed[kSignalCount] = {};

void remove_pending_files() {
  for (PendingFile& file : g_pending) {
    if (file.state.load() != kArmed) continue;
    struct stat status {};
    // Only the file this run created: a name that now holds something else is left alone.
    if (::fstatat(file.directory_fd, file.name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_dev == file.device &&
        status.st_ino == file.inode) {
      ::unlinkat(file.directory_fd, file.name, 0);
    }
    file.state.store(kFree);
  }
}

// Up to a second, in 1 ms sleeps (nanosleep is async-signal-safe): a creation takes
// microseconds, unless its thread waits for a lock that the interrupted thread holds.
void wait_for_creations() {
  for (int waited_ms = 0; g_creating.load() > 0 && waited_ms < 1000; ++waited_ms) {
    const timespec one_ms{0, 1000000};
    ::nanosleep(&one_ms, nullptr);
  }
}

extern "C" void remove_pending_and_reraise(int signal_number) {
  const int saved_errno = errno;
  wait_for_creations();
  remove_pending_files();
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

// The handlers are in place while anything is watched: an armed file or a creation.
void watch_one_more() {
  const std::lock_guard<std::mutex> lock(g_handlers_mutex);
  if (g_watched++ == 0) install_handlers();
}

void watch_one_less() {
  const std::lock_guard<std::mutex> lock(g_handlers_mutex);
  if (--g_watched == 0) restore_handlers();
}

}  // namespace

int remove_on_fatal_signal(int directory_fd, const char* name, dev_t device, ino_t inode) {
  if (std::strlen(name) >= sizeof g_pending[0].name) return -1;  // no such file can exist
  for (int slot = 0; slot < kSlots; ++slot) {
    PendingFile& file = g_pending[slot];
    int expected = kFree;
    if (!file.state.compare_exchange_strong(expected, kClaimed)) continue;
    std::strcpy(file.name, name);
    file.directory_fd = directory_fd;
    file.device = device;
    file.inode = inode;
    file.state.store(kArmed);
    watch_one_more();
    return slot;
  }
  return -1;
}

void forget_on_fatal_signal(int watch) {
  if (watch < 0 || watch >= kSlots) return;
  g_pending[watch].state.store(kFree);
  watch_one_less();
}

CleanupSignalsBlocked::CleanupSignalsBlocked() {
  const sigset_t set = cleanup_signal_set();
  ::pthread_sigmask(SIG_BLOCK, &set, &saved_);
}

CleanupSignalsBlocked::~CleanupSignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }

CreatingWatchedFile::CreatingWatchedFile() {
  g_creating.fetch_add(1);
  watch_one_more();
}

CreatingWatchedFile::~CreatingWatchedFile() {
  watch_one_less();
  g_creating.fetch_sub(1);
}

}  // namespace gpufilter::io
