#pragma once
// The local socket between a gpufilter command and a running `gpufilter server`, and the
// messages on it. A run request carries the command line, the caller's working
// directory and standard streams (as file descriptors), its umask and the variables
// that shape a run (tool_environment()); the reply carries the exit status. Both ends are the same build
// (build_identity()), so the format needs no versioning beyond a magic number.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace gpufilter::cli {

// $GPUFILTER_SERVER_SOCKET, else $XDG_RUNTIME_DIR/gpufilter-server.sock, else
// <temp dir>/gpufilter-<uid>/server.sock.
std::filesystem::path server_socket_path();

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
};

enum class ReplyKind : std::uint32_t {
  Ran = 1,       // exit_code is the run's status
  Declined = 2,  // the caller runs the command itself (text says why)
  Status = 3,    // text describes the server
  Stopping = 4,
};

struct ServerReply {
  ReplyKind kind = ReplyKind::Declined;
  std::int32_t exit_code = 0;
  std::string text;
};

// Each returns false when the peer went away or sent something malformed. `fds` travel
// with a request (SCM_RIGHTS): the receiver owns and closes the ones it gets.
bool send_request(int socket, const ServerRequest& request, const std::vector<int>& fds);
bool receive_request(int socket, ServerRequest& request, std::vector<int>& fds);
bool send_reply(int socket, const ServerReply& reply);
bool receive_reply(int socket, ServerReply& reply);

// A connection to the server listening at `path`; -1 when none is (no socket file, or a
// stale one whose server is gone).
int connect_to_server(const std::filesystem::path& path);

// A socket listening at `path` (made mode 0600, any file there already removed by the
// caller); -1 with `error` saying why.
int listen_at(const std::filesystem::path& path, std::string& error);

}  // namespace gpufilter::cli
