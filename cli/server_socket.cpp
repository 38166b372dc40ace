#include "server_socket.hpp"
#include "tool_library.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <system_error>

#include "exit_codes.hpp"
#include "gpufilter/version.hpp"
#include "gpufilter/io/user_folders.hpp"

namespace gpufilter::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::uint32_t kMagic = 0x47504653;                 // "GPFS"
constexpr std::uint32_t kMaxMessageBytes = 16u << 20;        // a million-file --from-file list travels as a path
constexpr int kMaxFds = 8;

// ---- byte buffers -------------------------------------------------------------------

struct Writer {
  std::string bytes;
  void u32(std::uint32_t v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void i64(std::int64_t v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void text(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes += s;
  }
  void texts(const std::vector<std::string>& list) {
    u32(static_cast<std::uint32_t>(list.size()));
    for (const std::string& s : list) text(s);
  }
};

struct Reader {
  const std::string& bytes;
  std::size_t at = 0;
  bool ok = true;
  template <class T>
  T number() {
    T v{};
    if (bytes.size() - at < sizeof v) {
      ok = false;
      return v;
    }
    std::memcpy(&v, bytes.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string text() {
    const std::uint32_t n = number<std::uint32_t>();
    if (!ok || bytes.size() - at < n) {
      ok = false;
      return {};
    }
    std::string s = bytes.substr(at, n);
    at += n;
    return s;
  }
  std::vector<std::string> texts() {
    const std::uint32_t n = number<std::uint32_t>();
    std::vector<std::string> list;
    for (std::uint32_t i = 0; ok && i < n; ++i) list.push_back(text());
    return list;
  }
};

// ---- framing: a 4-byte length (with the fds attached to it), then the payload --------

bool write_all(int socket, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(socket, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

using Deadline = std::chrono::steady_clock::time_point;
constexpr Deadline kNoDeadline = Deadline::max();

// Waits until `socket` has bytes (or an end) to read: false once `deadline` has passed.
bool readable_by(int socket, Deadline deadline) {
  if (deadline == kNoDeadline) return true;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd wait{socket, POLLIN, 0};
    const int ready = ::poll(&wait, 1, static_cast<int>(std::min<long long>(left, 60000)));
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return false;
  }
}

bool read_all(int socket, char* data, std::size_t size, Deadline deadline) {
  while (size > 0) {
    if (!readable_by(socket, deadline)) return false;
    const ssize_t n = ::recv(socket, data, size, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool send_frame(int socket, const std::string& payload, const std::vector<int>& fds) {
  std::uint32_t length = static_cast<std::uint32_t>(payload.size());
  iovec part{&length, sizeof length};
  msghdr message{};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  if (!fds.empty()) {
    if (fds.size() > static_cast<std::size_t>(kMaxFds)) return false;
    message.msg_control = control;
    message.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(header), fds.data(), sizeof(int) * fds.size());
  }
  ssize_t sent;
  do {
    sent = ::sendmsg(socket, &message, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  if (sent != static_cast<ssize_t>(sizeof length)) return false;
  return write_all(socket, payload.data(), payload.size());
}

bool receive_frame(int socket, std::string& payload, std::vector<int>* fds, Deadline deadline) {
  std::uint32_t length = 0;
  iovec part{&length, sizeof length};
  msghdr message{};
  message.msg_iov = &part;
  message.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  message.msg_control = control;
  message.msg_controllen = sizeof control;
  // The length and its fds come in one sendmsg(): the first read has them (waiting for
  // all four bytes only where no deadline limits it).
  ssize_t got = -1;
  if (readable_by(socket, deadline)) {
    do {
      got = ::recvmsg(socket, &message, MSG_CMSG_CLOEXEC | (deadline == kNoDeadline ? MSG_WAITALL : 0));
    } while (got < 0 && errno == EINTR);
  }
  // Whatever arrived is ours to close, even when the rest is malformed.
  std::vector<int> received;
  for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr; header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
      received.push_back(fd);
    }
  }
  const auto fail = [&] {
    for (int fd : received) ::close(fd);
    return false;
  };
  if (got <= 0 || (message.msg_flags & MSG_CTRUNC) != 0) return fail();
  if (got < static_cast<ssize_t>(sizeof length) &&
      !read_all(socket, reinterpret_cast<char*>(&length) + got, sizeof length - static_cast<std::size_t>(got), deadline))
    return fail();
  if (fds == nullptr && !received.empty()) return fail();
  if (length > kMaxMessageBytes) return fail();
  payload.assign(length, '\0');
  if (!read_all(socket, payload.data(), length, deadline)) return fail();
  if (fds != nullptr) *fds = std::move(received);
  return true;
}

bool fill_address(const fs::path& path, sockaddr_un& address) {
  address = {};
  address.sun_family = AF_UNIX;
  const std::string text = path.string();
  if (text.size() >= sizeof address.sun_path) return false;
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  return true;
}

// <temp dir>/gpufilter-<uid>: the default folder, which anyone could make first.
fs::path default_socket_folder() {
  std::error_code error;
  fs::path temp = fs::temp_directory_path(error);  // $TMPDIR and the like, else /tmp
  if (error) temp = "/tmp";
  return temp / ("gpufilter-" + std::to_string(::getuid()));
}

// Whether `folder` is missing (to be made) or a directory of this user's closed to others.
bool usable_folder(const fs::path& folder) {
  struct stat status {};
  if (::lstat(folder.c_str(), &status) != 0) return errno == ENOENT;
  return S_ISDIR(status.st_mode) && status.st_uid == ::getuid() && (status.st_mode & 0022) == 0;
}

// Makes `directory` and its missing parents, mode 0700.
void make_directories(const fs::path& directory) {
  if (const int error = io::make_private_directories(directory); error != 0)
    throw CliError(ExitCode::Runtime,
                   "cannot make the server's directory '" + directory.string() + "': " + std::strerror(error));
}

}  // namespace

fs::path server_socket_path() {
  if (const char* given = std::getenv("GPUFILTER_SERVER_SOCKET"); given != nullptr && *given != '\0') {
    // Absolute now: the server works in "/" once started, its callers anywhere.
    std::error_code error;
    const fs::path absolute = fs::absolute(given, error);
    return error ? fs::path(given) : absolute.lexically_normal();
  }
  if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime != nullptr && *runtime == '/')
    return fs::path(runtime) / "gpufilter-server.sock";
  const fs::path folder = default_socket_folder();
  if (!usable_folder(folder)) {
    if (const std::optional<fs::path> home = io::user_cache_folder()) return *home / "server.sock";
  }
  return folder / "server.sock";
}

std::optional<std::string> socket_fallback_note() {
  if (const char* given = std::getenv("GPUFILTER_SERVER_SOCKET"); given != nullptr && *given != '\0') return std::nullopt;
  if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime != nullptr && *runtime == '/') return std::nullopt;
  const fs::path folder = default_socket_folder();
  const std::optional<fs::path> home = io::user_cache_folder();
  if (usable_folder(folder) || !home) return std::nullopt;
  return "'" + folder.string() + "' is not this user's alone (another user made it), so the socket is in '" +
         home->string() + "'";
}

std::vector<std::int64_t> caller_limits() {
  std::vector<std::int64_t> limits;
  for (const int resource : {RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_AS, RLIMIT_DATA, RLIMIT_CPU, RLIMIT_CORE,
                             RLIMIT_STACK, RLIMIT_MEMLOCK}) {
    rlimit limit{};
    if (::getrlimit(resource, &limit) != 0) limit = {0, 0};
    limits.push_back(static_cast<std::int64_t>(limit.rlim_cur));
    limits.push_back(static_cast<std::int64_t>(limit.rlim_max));
  }
  return limits;
}

void prepare_socket_directory(const fs::path& socket) {
  const fs::path directory = socket.parent_path().empty() ? fs::path(".") : socket.parent_path();
  make_directories(directory);
  struct stat status {};
  if (::lstat(directory.c_str(), &status) != 0 || !S_ISDIR(status.st_mode))
    throw CliError(ExitCode::Runtime, "the server's directory '" + directory.string() + "' is not a directory");
  if (status.st_uid != ::getuid())
    throw CliError(ExitCode::Runtime, "the server's directory '" + directory.string() +
                                          "' belongs to another user; set GPUFILTER_SERVER_SOCKET to a path of yours");
  // Others must not be able to replace the socket with one of theirs (the socket itself
  // is made mode 0600, and the server checks each caller's user).
  if ((status.st_mode & 0022) != 0)
    throw CliError(ExitCode::Runtime, "the server's directory '" + directory.string() +
                                          "' is writable by other users (make it mode 0700)");
}

std::vector<std::string> tool_environment() {
  std::vector<std::string> list;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const bool tool = text.rfind("GPUFILTER_", 0) == 0 && text.rfind("GPUFILTER_SERVER", 0) != 0;
    if (tool || text.rfind("CUDA_", 0) == 0 || text.rfind("OPENCV_", 0) == 0) list.emplace_back(text);
  }
  std::sort(list.begin(), list.end());
  return list;
}

std::string build_identity() {
  std::string identity = std::string("gpufilter ") + kVersion;
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (error) return identity;
  // The program and the tool's library it loads (tool_library.hpp): a rebuilt tool is
  // another build, even where the program did not change.
  for (const fs::path& file : {exe, tool_library_path()}) {
    identity += ' ' + file.string();
    struct stat status {};
    if (!file.empty() && ::stat(file.c_str(), &status) == 0) {
      identity += ' ' + std::to_string(status.st_size) + ' ' + std::to_string(status.st_mtim.tv_sec) + '.' +
                  std::to_string(status.st_mtim.tv_nsec);
    }
  }
  return identity;
}

bool send_request(int socket, const ServerRequest& request, const std::vector<int>& fds) {
  Writer w;
  w.u32(kMagic);
  w.u32(static_cast<std::uint32_t>(request.kind));
  w.text(request.identity);
  w.texts(request.args);
  w.texts(request.env);
  w.i64(request.started_ns);
  w.u32(request.umask);
  w.u32(static_cast<std::uint32_t>(request.limits.size()));
  for (const std::int64_t limit : request.limits) w.i64(limit);
  return send_frame(socket, w.bytes, fds);
}

bool receive_request(int socket, ServerRequest& request, std::vector<int>& fds, Deadline deadline) {
  std::string payload;
  if (!receive_frame(socket, payload, &fds, deadline)) return false;
  Reader r{payload};
  const bool magic = r.number<std::uint32_t>() == kMagic;
  request.kind = static_cast<RequestKind>(r.number<std::uint32_t>());
  request.identity = r.text();
  request.args = r.texts();
  request.env = r.texts();
  request.started_ns = r.number<std::int64_t>();
  request.umask = r.number<std::uint32_t>();
  const std::uint32_t limits = r.number<std::uint32_t>();
  request.limits.clear();
  for (std::uint32_t i = 0; r.ok && i < limits; ++i) request.limits.push_back(r.number<std::int64_t>());
  if (r.ok && magic) return true;
  for (int fd : fds) ::close(fd);
  fds.clear();
  return false;
}

bool send_reply(int socket, const ServerReply& reply) {
  Writer w;
  w.u32(kMagic);
  w.u32(static_cast<std::uint32_t>(reply.kind));
  w.u32(static_cast<std::uint32_t>(reply.exit_code));
  w.text(reply.text);
  return send_frame(socket, w.bytes, {});
}

bool receive_reply(int socket, ServerReply& reply) {
  std::string payload;
  if (!receive_frame(socket, payload, nullptr, kNoDeadline)) return false;
  Reader r{payload};
  const bool magic = r.number<std::uint32_t>() == kMagic;
  reply.kind = static_cast<ReplyKind>(r.number<std::uint32_t>());
  reply.exit_code = static_cast<std::int32_t>(r.number<std::uint32_t>());
  reply.text = r.text();
  return r.ok && magic;
}

int listen_at(const fs::path& path, std::string& error) {
  sockaddr_un address;
  if (!fill_address(path, address)) {
    error = "the socket path '" + path.string() + "' is too long";
    return -1;
  }
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const mode_t old_mask = ::umask(0177);  // the socket is born mode 0600
  const bool bound = fd >= 0 && ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  ::umask(old_mask);
  if (!bound || ::listen(fd, 64) != 0) {
    error = "cannot listen at '" + path.string() + "': " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return -1;
  }
  return fd;
}

int connect_to_server(const fs::path& path) {
  sockaddr_un address;
  if (!fill_address(path, address)) return -1;
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int status;
  do {
    status = ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
  } while (status != 0 && errno == EINTR);
  if (status != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool server_lock_held(const std::filesystem::path& socket) {
  const int fd = ::open((socket.string() + ".lock").c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
  ::close(fd);
  return held;
}

}  // namespace gpufilter::cli
