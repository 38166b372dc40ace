#pragma once
// `gpufilter server`: a process that keeps what a GPU run spends most of its wall time
// making (the CUDA context, nvJPEG's handle and decoder states, device buffers, the
// codec libraries) from one command to the next. While it runs, a gpufilter command is
// sent to it over a local socket (server_socket.hpp) with the caller's working directory,
// standard streams and umask, and runs there as it would have in its own process; the
// caller exits with its status. A command runs in its own process instead (decided before
// anything of it is read) where the server could not run it so:
// - another build, other GPUFILTER_*, CUDA_* or OPENCV_* variables, another --max-pixels;
// - a caller of another user, group, supplementary groups, mount namespace or root
//   directory (server_peer.hpp), or other resource limits (ulimit);
// - an argument that names a file through the caller's process (/dev/fd/N, <(...),
//   /proc/self/..., process_paths.hpp);
// - a server whose every process (--processes, server_helpers.hpp) is busy with another
//   command: waiting would take longer than starting.
// Once the server says the command started, the caller never runs it itself: a server
// that ends mid-command is an error. Requests are read on threads of their own, each
// within a short deadline; status and stop are answered at once.
#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace gpufilter::cli {

using ServerClock = std::chrono::steady_clock;

struct ServerHooks {
  // Whether the server can run this command line as its own process would (settings the
  // server fixed at its start, such as the decoders' pixel limit, match).
  std::function<bool(int argc, const char* const* argv)> accepts;
  // Runs one forwarded command line in the server, its streams already the caller's;
  // returns its exit status.
  std::function<int(int argc, const char* const* argv, ServerClock::time_point started)> serve;
  // Loads and starts what the commands will share, before the server says it is ready.
  std::function<void()> warm_up;
  // Whether the server can go on after a command (false: a GPU context is broken).
  std::function<bool()> healthy;
};

// Whether the command line is `gpufilter server ...`.
bool is_server_command(int argc, const char* const* argv);

// `gpufilter server start|run|stop|status [--idle-timeout SECONDS] [--processes N]`. Returns the exit
// status; throws CliError for usage mistakes.
int run_server_command(int argc, const char* const* argv, const ServerHooks& hooks);

// Runs the command line on the server, when one of this build listens: its exit status;
// nullopt when there is none, it declined, or it ended before starting the command (the
// caller then runs it itself). A server that ends after starting it gives
// ExitCode::Runtime, with one line on stderr: what it had written is described by
// `outputs_note` (e.g. "OUT 'x.png' is whole or untouched"). GPUFILTER_SERVER=off never
// forwards.
std::optional<int> forward_to_server(int argc, const char* const* argv, ServerClock::time_point started,
                                     const std::function<std::string()>& outputs_note);

}  // namespace gpufilter::cli
