// The caller's side of `gpufilter server` (server.hpp): forwarding a command line.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>

#include "exit_codes.hpp"
#include "gpufilter/io/process_paths.hpp"
#include "server.hpp"
#include "server_auto.hpp"
#include "server_socket.hpp"

namespace gpufilter::cli {
namespace {

// fd `i` of this process, or /dev/null where it is closed.
int stream_or_null(int i) {
  if (::fcntl(i, F_GETFD) != -1) return i;
  return ::open("/dev/null", i == 0 ? O_RDONLY | O_CLOEXEC : O_WRONLY | O_CLOEXEC);
}

// The reply that ends the exchange, after the Started that may come first. False when the
// connection ended without one; `started` says whether the command had begun.
bool final_reply(int connection, ServerReply& reply, bool& started) {
  started = false;
  while (receive_reply(connection, reply)) {
    if (reply.kind != ReplyKind::Started) return true;
    started = true;
  }
  return false;
}

}  // namespace

bool is_server_command(int argc, const char* const* argv) { return argc >= 2 && std::strcmp(argv[1], "server") == 0; }

std::optional<int> forward_to_server(int argc, const char* const* argv, ServerClock::time_point started,
                                     const std::function<std::string()>& outputs_note) {
  if (server_mode() == ServerMode::Off) return std::nullopt;
  // The common case, no server: one stat and nothing else.
  const std::filesystem::path socket = server_socket_path();
  struct stat status {};
  if (::stat(socket.c_str(), &status) != 0 || !S_ISSOCK(status.st_mode) || status.st_uid != ::getuid())
    return std::nullopt;
  // /dev/fd/N, <(...), /proc/self/...: the server would open its own.
  if (io::arguments_through_process(argc, argv)) return std::nullopt;
  const int connection = connect_to_server(socket);
  if (connection < 0) return std::nullopt;
  // Above the standard streams, so a closed one is not taken by the directory.
  const int opened = ::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const int cwd = opened >= 0 && opened <= 2 ? ::fcntl(opened, F_DUPFD_CLOEXEC, 3) : opened;
  if (cwd != opened) ::close(opened);
  if (cwd < 0) {
    ::close(connection);
    return std::nullopt;
  }
  ServerRequest request;
  request.kind = RequestKind::Run;
  request.identity = build_identity();
  request.args.assign(argv, argv + argc);
  request.env = tool_environment();
  request.started_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(started.time_since_epoch()).count();
  const mode_t mask = ::umask(0);
  ::umask(mask);
  request.umask = mask;
  request.limits = caller_limits();
  const std::vector<int> fds = {cwd, stream_or_null(0), stream_or_null(1), stream_or_null(2)};
  ServerReply reply;
  bool began = false;
  const bool sent = send_request(connection, request, fds);
  const bool answered = sent && final_reply(connection, reply, began);
  ::close(connection);
  for (std::size_t i = 0; i < fds.size(); ++i)
    if (i == 0 || fds[i] > 2) ::close(fds[i]);
  if (!began) return std::nullopt;  // declined, or gone before starting: nothing of it was read
  if (answered && reply.kind == ReplyKind::Ran) return reply.exit_code;
  // It started: its input may have been read, so running it again could do something else.
  std::cerr << "gpufilter: error: the server ended while running the command, which is not run again; "
            << outputs_note() << std::endl;
  return static_cast<int>(ExitCode::Runtime);
}

}  // namespace gpufilter::cli
