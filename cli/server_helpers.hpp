#pragma once
// The processes of a `gpufilter server --processes N` beside its first (server.hpp), so
// that several commands at once (`parallel gpufilter ...`) run side by side, each in a
// warm process of its own, instead of all but one running in new processes. Each is
// forked before the server starts anything (no thread, no CUDA context yet), warms up
// on its own and runs one command at a time. The first process keeps the socket: it
// accepts every connection, answers status and stop, runs a command itself when it is
// free, and otherwise hands the request and its file descriptors (SCM_RIGHTS) to a free
// helper over a socket pair. A helper answers the caller itself and then tells the first
// process, on the same pair, that it is free again. Closing the pair ends a helper: its
// batch stops after the files in flight, as the first process's own does.
#include <sys/types.h>

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "server.hpp"
#include "server_socket.hpp"

namespace gpufilter::cli {

// "running 'blur' for 3 s": a process's command in `server status`.
std::string running_for(const std::string& what, ServerClock::time_point since, ServerClock::time_point now);

// What a helper says on its pair: ready after its warm-up, done after a command (healthy
// or not: a broken GPU context ends the whole server, as in the first process).
enum class HelperNews : char { Warm = 'w', Done = 'd', Broken = 'b' };

class ServerHelpers {
 public:
  ServerHelpers() = default;
  ServerHelpers(const ServerHelpers&) = delete;
  ServerHelpers& operator=(const ServerHelpers&) = delete;

  // Forks `count` helpers, each calling `serve(pair)` (which must not return). Only
  // while this process has one thread: returns false, forking none, otherwise.
  bool start(int count, const std::function<void(int pair)>& serve);

  // A warm, free helper takes the request, with `fds` (the caller's directory and
  // streams, then the connection): true once it has them (this process then closes its
  // copies); false where none is free or the hand-off failed (the fds stay untouched).
  bool hand_off(const ServerRequest& request, const std::vector<int>& fds, const std::string& what);

  // The pairs to poll for news, and reading it when one is readable. Returns how many
  // commands helpers finished; `broken` becomes true where one reported a broken GPU.
  std::vector<int> pairs() const;
  long read_news(int pair, bool& broken);

  int busy() const;  // helpers running a command or still warming up
  // One line per helper for `server status`; empty without helpers.
  std::string describe(ServerClock::time_point now) const;

  // Closes the pairs: each helper stops its command's batch after the files in flight,
  // answers its caller and exits. Then waits for them all.
  void end();

 private:
  struct Helper {
    pid_t pid = -1;
    int pair = -1;
    bool warm = false;
    bool running = false;
    ServerClock::time_point since{};
    std::string what;
  };
  mutable std::mutex mutex_;
  std::vector<Helper> helpers_;
};

}  // namespace gpufilter::cli
