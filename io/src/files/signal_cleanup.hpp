#pragma once
// Removing an unfinished output file when the run is killed by SIGINT, SIGTERM, SIGHUP or
// SIGPIPE. A signal the parent set to be ignored (nohup ignores SIGHUP) stays ignored:
// the handler is only installed where the signal would have ended the process anyway.
#include <signal.h>
#include <sys/types.h>

namespace gpufilter::io {

// The file `name` in the directory open as `directory_fd`, removed by a fatal signal only
// while it is still the file with this device and inode number (never a file put there
// later). Several at once (a batch writes from several threads); the caller blocks the
// signals while arming. Returns the watch to pass to forget_on_fatal_signal, or -1 when
// every slot is taken (the file is then not watched).
int remove_on_fatal_signal(int directory_fd, const char* name, dev_t device, ino_t inode);
// Stops watching: the file was renamed into place or removed. Ignores -1.
void forget_on_fatal_signal(int watch);

// Blocks the cleanup signals in this thread for its lifetime.
class CleanupSignalsBlocked {
 public:
  CleanupSignalsBlocked();
  ~CleanupSignalsBlocked();
  CleanupSignalsBlocked(const CleanupSignalsBlocked&) = delete;
  CleanupSignalsBlocked& operator=(const CleanupSignalsBlocked&) = delete;

 private:
  sigset_t saved_;
};

// Spans the creation of a file and its remove_on_fatal_signal(), so that no signal can
// leave the file behind: the signals are blocked in this thread, the handlers are in place
// before the file exists, and a signal that another thread of the process takes meanwhile
// waits (up to a second) until the file is armed.
class CreatingWatchedFile {
 public:
  CreatingWatchedFile();
  ~CreatingWatchedFile();
  CreatingWatchedFile(const CreatingWatchedFile&) = delete;
  CreatingWatchedFile& operator=(const CreatingWatchedFile&) = delete;

 private:
  CleanupSignalsBlocked blocked_;
};

}  // namespace gpufilter::io
