#include "fd_watch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace gpufilter::cli {

FdWatch::FdWatch(int fd, short events, std::function<void()> act) {
  if (::pipe2(wake_, O_CLOEXEC) != 0) return;
  thread_ = std::thread([fd, events, wake = wake_[0], act = std::move(act)] {
    pollfd fds[2] = {{fd, events, 0}, {wake, POLLIN, 0}};
    while (::poll(fds, 2, -1) < 0 && errno == EINTR) {
    }
    if ((fds[0].revents & (events | POLLHUP | POLLERR)) != 0) act();
  });
}

FdWatch::~FdWatch() {
  if (!thread_.joinable()) return;
  [[maybe_unused]] const ssize_t n = ::write(wake_[1], "x", 1);
  thread_.join();
  ::close(wake_[0]);
  ::close(wake_[1]);
}

}  // namespace gpufilter::cli
