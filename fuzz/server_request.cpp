// The server's message parsers on arbitrary bytes, as a peer on its socket would send
// them: receive_request (what `gpufilter server` reads from any local caller) and
// receive_reply (what a caller reads back). The first byte picks the parser, whether
// the rest travels as raw stream bytes or as one frame's payload, and whether an open
// descriptor rides along (SCM_RIGHTS). A request accepted must survive a round trip
// through send_request, and no descriptor may leak either way.
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "server_socket.hpp"

namespace {

using namespace gpufilter::cli;

// The lowest free descriptor: a leak shows as a higher one after a call.
int lowest_free_fd() {
  const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (fd < 0) std::abort();
  ::close(fd);
  return fd;
}

struct Pair {
  int fds[2] = {-1, -1};
  Pair() {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) std::abort();
  }
  ~Pair() {
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  }
  void close_writer() {
    ::close(fds[0]);
    fds[0] = -1;
  }
};

// Writes `bytes` (all fit in the socket's buffer: the target's inputs are short), the
// first byte with a descriptor attached where `with_fd`.
void send_bytes(int socket, const std::string& bytes, bool with_fd) {
  std::size_t done = 0;
  if (with_fd && !bytes.empty()) {
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    iovec part{const_cast<char*>(bytes.data()), 1};
    msghdr message{};
    message.msg_iov = &part;
    message.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    cmsghdr* header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(header), &fd, sizeof fd);
    if (::sendmsg(socket, &message, MSG_NOSIGNAL) != 1) std::abort();
    ::close(fd);  // the copy in flight is the receiver's
    done = 1;
  }
  while (done < bytes.size()) {
    const ssize_t n = ::send(socket, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n <= 0) std::abort();
    done += static_cast<std::size_t>(n);
  }
}

bool same(const ServerRequest& a, const ServerRequest& b) {
  return a.kind == b.kind && a.identity == b.identity && a.args == b.args && a.env == b.env &&
         a.started_ns == b.started_ns && a.umask == b.umask && a.limits == b.limits;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (mode & 2) {  // one frame: its length, then the bytes as its payload
    const auto length = static_cast<std::uint32_t>(bytes.size());
    bytes.insert(0, reinterpret_cast<const char*>(&length), sizeof length);
  }
  const bool with_fd = (mode & 4) != 0;
  const int free_before = lowest_free_fd();
  {
    Pair pair;
    send_bytes(pair.fds[0], bytes, with_fd);
    pair.close_writer();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    if (mode & 1) {
      ServerReply reply;
      receive_reply(pair.fds[1], reply);
    } else {
      ServerRequest request;
      std::vector<int> fds;
      if (receive_request(pair.fds[1], request, fds, deadline)) {
        for (int fd : fds) ::close(fd);
        // The same request, sent and read again.
        Pair again;
        if (!send_request(again.fds[0], request, {})) std::abort();
        ServerRequest copy;
        std::vector<int> no_fds;
        if (!receive_request(again.fds[1], copy, no_fds, deadline) || !same(request, copy) || !no_fds.empty())
          std::abort();
      } else if (!fds.empty()) {
        std::abort();  // a refused request keeps no descriptors
      }
    }
  }
  if (lowest_free_fd() != free_before) std::abort();
  return 0;
}
