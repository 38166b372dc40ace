#pragma once
// A request that the command in progress stop early, set by a server (server.hpp) when
// the command's caller has gone (Ctrl-C, a killed script) or the server is stopped: a
// batch then takes no more files, finishes the ones in flight (outputs are written whole
// or not at all), says how far it got and fails. A command run in its own process
// simply dies with its caller.
#include <atomic>

namespace gpufilter::cli {

inline std::atomic<bool>& stop_request() {
  static std::atomic<bool> requested{false};
  return requested;
}

}  // namespace gpufilter::cli
