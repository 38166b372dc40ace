#pragma once
// `gpufilter server`: a process that keeps what a GPU run spends most of its wall time
// making (the CUDA context, nvJPEG's handle and decoder states, device buffers, the
// codec libraries) from one command to the next. While it runs, every gpufilter command
// of the same build, user and environment (tool_environment()) is sent to it over a local socket
// (server_socket.hpp) with the caller's working directory and standard streams, and
// runs there as it would have in its own process; the caller exits with its status.
// Commands run one at a time on a worker thread, in the order they came; status and
// stop requests are answered at once by the accepting thread.
// Without a server, or where it declines, a command runs in its own process as before.
#include <chrono>
#include <functional>
#include <optional>

namespace gpufilter::cli {

using ServerClock = std::chrono::steady_clock;

struct ServerHooks {
  // Runs one forwarded command line in the server, its streams already the caller's;
  // returns its exit status, or nullopt for the caller to run it itself.
  std::function<std::optional<int>(int argc, const char* const* argv, ServerClock::time_point started)> serve;
  // Loads and starts what the commands will share, before the server says it is ready.
  std::function<void()> warm_up;
  // Whether the server can go on after a command (false: a GPU context is broken).
  std::function<bool()> healthy;
};

// Whether the command line is `gpufilter server ...`.
bool is_server_command(int argc, const char* const* argv);

// `gpufilter server start|run|stop|status [--idle-timeout SECONDS]`. Returns the exit
// status; throws CliError for usage mistakes.
int run_server_command(int argc, const char* const* argv, const ServerHooks& hooks);

// Runs the command line on the server, when one of this build listens: its exit status;
// nullopt when there is none, it declined, or it ended before answering (the caller
// then runs the command itself). GPUFILTER_SERVER=off never forwards.
std::optional<int> forward_to_server(int argc, const char* const* argv, ServerClock::time_point started);

}  // namespace gpufilter::cli
