#pragma once
// Names the calling thread (at most 15 characters on Linux) for top -H, /proc/PID/task
// and profilers: a batch runs dozens of threads, and telling the JPEG engine's apart from
// the decoders' is how its start-up was profiled. Elsewhere, nothing.
#if defined(__linux__)
#include <pthread.h>
#endif

namespace gpufilter::io {

inline void name_this_thread(const char* name) {
#if defined(__linux__)
  pthread_setname_np(pthread_self(), name);
#else
  (void)name;
#endif
}

}  // namespace gpufilter::io
