#pragma once
/// @file
/// Requests that the command in progress stop early, set by a server (server.hpp):
/// - stop_request(): the server is stopped, or the caller has gone: a batch takes no more
///   files, finishes the ones in flight (outputs are written whole or not at all), says
///   how far it got and fails.
/// - cancel_request(): the caller has gone (Ctrl-C, a killed script): the file in progress
///   stops at its next safe point (after decoding, before writing) and writes nothing, as
///   a command run in its own process dies with its caller.
#include <atomic>

#include "gpufilter/io/io_error.hpp"

namespace gpufilter::io {

inline std::atomic<bool>& stop_request() {
  static std::atomic<bool> requested{false};
  return requested;
}

inline std::atomic<bool>& cancel_request() {
  static std::atomic<bool> requested{false};
  return requested;
}

/// A safe point: throws once cancel_request() is set, before anything is written.
inline void throw_if_cancelled() {
  if (cancel_request().load()) throw IoError(Fault::Runtime, "stopped: the caller has gone");
}

}  // namespace gpufilter::io
