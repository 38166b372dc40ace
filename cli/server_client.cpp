// The caller's side of `gpufilter server` (server.hpp): forwarding a command line.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>

#include "server.hpp"
#include "server_socket.hpp"

namespace gpufilter::cli {
namespace {

bool forwarding_disabled() {
  const char* value = std::getenv("GPUFILTER_SERVER");
  if (value == nullptr) return false;
  return std::strcmp(value, "off") == 0 || std::strcmp(value, "0") == 0 || std::strcmp(value, "no") == 0;
}

// fd `i` of this process, or /dev/null where it is closed.
int stream_or_null(int i) {
  if (::fcntl(i, F_GETFD) != -1) return i;
  return ::open("/dev/null", i == 0 ? O_RDONLY | O_CLOEXEC : O_WRONLY | O_CLOEXEC);
}

}  // namespace

std::optional<int> forward_to_server(int argc, const char* const* argv, ServerClock::time_point started) {
  if (forwarding_disabled()) return std::nullopt;
  // The common case, no server: one stat and nothing else.
  const std::filesystem::path socket = server_socket_path();
  struct stat status {};
  if (::stat(socket.c_str(), &status) != 0 || !S_ISSOCK(status.st_mode) || status.st_uid != ::getuid())
    return std::nullopt;
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
  const std::vector<int> fds = {cwd, stream_or_null(0), stream_or_null(1), stream_or_null(2)};
  ServerReply reply;
  const bool sent = send_request(connection, request, fds);
  const bool answered = sent && receive_reply(connection, reply);
  ::close(connection);
  for (std::size_t i = 0; i < fds.size(); ++i)
    if (i == 0 || fds[i] > 2) ::close(fds[i]);
  if (!sent) return std::nullopt;
  if (!answered) {
    std::cerr << "gpufilter: the server ended before answering; running the command here" << std::endl;
    return std::nullopt;
  }
  if (reply.kind == ReplyKind::Ran) return reply.exit_code;
  return std::nullopt;
}

}  // namespace gpufilter::cli
