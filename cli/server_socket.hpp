#pragma once
// The local socket between a gpufilter command and a running `gpufilter server`, and the
// messages on it. A run request carries the command line, the caller's working
// directory and standard streams (as file descriptors), its umask and the variables
// that shape a run (tool_environment()); the reply carries the exit status. Both ends are the same build
// (build_identity()), so the format needs no versioning beyond a magic number.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpufilter::cli {

// $GPUFILTER_SERVER_SOCKET (made absolute against the working directory), else
// $XDG_RUNTIME_DIR/gpufilter-server.sock, else <temp dir>/gpufilter-<uid>/server.sock;
// where that folder exists but is not this user's alone (another user made it first),
// $XDG_CACHE_HOME/gpufilter/server.sock, else $HOME/.cache/gpufilter/server.sock.
std::filesystem::path server_socket_path();

// Whether a server holds the lock beside `socket`: it runs, starts or is ending.
bool server_lock_held(const std::filesystem::path& socket);

// Why server_socket_path() is not the default folder under the temp dir, when it took
// the fallback under $HOME: a line to tell the user; nullopt otherwise.
std::optional<std::string> socket_fallback_note();

// Makes the socket's directory where it is missing (mode 0700) and checks that it belongs
// to this user and is closed to others, so no other user can reach the server or plant
// a socket. Throws CliError(Runtime) naming the problem.
void prepare_socket_directory(const std::filesystem::path& socket);

// The caller's variables that shape a run, sorted: GPUFILTER_* (but GPUFILTER_SERVER*),
// CUDA_* (CUDA_VISIBLE_DEVICES, ...) and OPENCV_*. The tool and its libraries read some
// of them once per process, so a server runs only commands whose variables match its own.
std::vector<std::string> tool_environment();

// This executable, as the server and its callers compare it: version, path, size and
// modification time. A rebuilt or upgraded gpufilter is another build.
std::string build_identity();

enum class RequestKind : std::uint32_t { Run = 1, Status = 2, Stop = 3 };

struct ServerRequest {
  RequestKind kind = RequestKind::Run;
  std::string identity;
  std::vector<std::string> args;  // argv, the program name first
  std::vector<std::string> env;   // the caller's GPUFILTER_* variables, NAME=value
  std::int64_t started_ns = 0;    // the caller's steady clock when its main() began
  std::uint32_t umask = 022;
  std::vector<std::int64_t> limits;  // caller_limits(): the caller's resource limits
};

// This process's resource limits that shape a run (file size, open files, memory, CPU
// time, core files, stack, locked memory), soft and hard, in a fixed order. A server runs
// a command only when the caller's equal its own: they are per process, so it could not
// apply them to one command.
std::vector<std::int64_t> caller_limits();

enum class ReplyKind : std::uint32_t {
  Ran = 1,       // exit_code is the run's status
  Declined = 2,  // the caller runs the command itself (text says why)
  Status = 3,    // text describes the server
  Stopping = 4,
  Started = 5,   // the command starts now: from here on, the caller never runs it itself
};

struct ServerReply {
  ReplyKind kind = ReplyKind::Declined;
  std::int32_t exit_code = 0;
  std::string text;
};

// Each returns false when the peer went away or sent something malformed. `fds` travel
// with a request (SCM_RIGHTS): the receiver owns and closes the ones it gets. A request
// must arrive whole by `deadline` (one limit for all of it, so a caller that sends a
// byte at a time cannot hold a reader long).
bool send_request(int socket, const ServerRequest& request, const std::vector<int>& fds);
bool receive_request(int socket, ServerRequest& request, std::vector<int>& fds,
                     std::chrono::steady_clock::time_point deadline);
bool send_reply(int socket, const ServerReply& reply);
bool receive_reply(int socket, ServerReply& reply);

// A connection to the server listening at `path`; -1 when none is (no socket file, or a
// stale one whose server is gone).
int connect_to_server(const std::filesystem::path& path);

// A socket listening at `path` (made mode 0600, any file there already removed by the
// caller); -1 with `error` saying why.
int listen_at(const std::filesystem::path& path, std::string& error);

}  // namespace gpufilter::cli
