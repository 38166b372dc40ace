#pragma once
// Writing a whole buffer to a file descriptor, through short writes and EINTR: for the
// atomic writer's temporary file, the standard streams and the saved stderr.
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace gpufilter::io {

// 0 once all `size` bytes are written, else the errno of the failure. Never throws, so
// C libraries may call it from their output callbacks.
inline int write_all(int fd, const void* data, std::size_t size) noexcept {
  const auto* bytes = static_cast<const unsigned char*>(data);
  while (size > 0) {
    const ssize_t written = ::write(fd, bytes, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    bytes += written;
    size -= static_cast<std::size_t>(written);
  }
  return 0;
}

}  // namespace gpufilter::io
