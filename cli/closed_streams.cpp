#include "closed_streams.hpp"

#include <fcntl.h>
#include <unistd.h>

namespace gpufilter::cli {

void hold_closed_standard_streams() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1) continue;
    // open() returns the lowest free number, which is `fd` here: the ones below it are
    // open, or were given a placeholder in an earlier pass of this loop.
    const int placeholder = ::open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY);
    if (placeholder >= 0 && placeholder != fd) {
      ::dup2(placeholder, fd);
      ::close(placeholder);
    }
  }
}

}  // namespace gpufilter::cli
