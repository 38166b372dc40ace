#include "server_peer.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77  // Linux 6.5; older headers lack it
#endif

namespace gpufilter::cli {
namespace {

std::vector<gid_t> own_groups() {
  const int count = ::getgroups(0, nullptr);
  std::vector<gid_t> groups(static_cast<std::size_t>(std::max(count, 0)));
  if (count > 0 && ::getgroups(count, groups.data()) != count) groups.clear();
  std::sort(groups.begin(), groups.end());
  return groups;
}

// The peer's supplementary groups as they were when it connected; false where the
// kernel cannot say.
bool peer_groups(int connection, std::vector<gid_t>& groups) {
  groups.assign(64, 0);
  for (int attempt = 0; attempt < 4; ++attempt) {
    socklen_t size = static_cast<socklen_t>(groups.size() * sizeof(gid_t));
    if (::getsockopt(connection, SOL_SOCKET, SO_PEERGROUPS, groups.data(), &size) == 0) {
      groups.resize(size / sizeof(gid_t));
      std::sort(groups.begin(), groups.end());
      return true;
    }
    if (errno != ERANGE) return false;
    groups.resize(size / sizeof(gid_t) + 1);
  }
  return false;
}

// The device and inode of what `name` names under the directory `dir` (a /proc entry).
bool identify(int dir, const char* name, struct stat& status) { return ::fstatat(dir, name, &status, 0) == 0; }

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// Whether the process `pid` (open as `process_dir`, its /proc directory) has this
// process's mount namespace and root directory.
bool same_namespace_and_root(int process_dir) {
  struct stat theirs_mnt {}, ours_mnt {}, theirs_root {}, ours_root {};
  return identify(process_dir, "ns/mnt", theirs_mnt) && ::stat("/proc/self/ns/mnt", &ours_mnt) == 0 &&
         same_file(theirs_mnt, ours_mnt) && identify(process_dir, "root", theirs_root) &&
         ::stat("/", &ours_root) == 0 && same_file(theirs_root, ours_root);
}

// The whole of a small /proc file opened relative to `dir`; empty where unreadable.
std::string read_proc_file(int dir, const char* name) {
  const int fd = ::openat(dir, name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got <= 0) break;
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > (1u << 20)) break;  // /proc status files are a few KiB
  }
  ::close(fd);
  return text;
}

// Whether the process `process_dir` is confined as this one is: its status's confinement
// lines and its security module label. Unreadable counts as different.
bool same_confinement(int process_dir) {
  const int self = ::open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (self < 0) return false;
  const std::string ours = confinement_lines(read_proc_file(self, "status"));
  const std::string our_label = read_proc_file(self, "attr/current");
  ::close(self);
  return !ours.empty() && ours == confinement_lines(read_proc_file(process_dir, "status")) &&
         our_label == read_proc_file(process_dir, "attr/current");
}

// Whether the process `pidfd` refers to still runs (so its pid was not reused since).
bool still_running(int pidfd) {
  return ::syscall(SYS_pidfd_send_signal, pidfd, 0, nullptr, 0) == 0;
}

bool still_connected(int connection) {
  pollfd probe{connection, POLLRDHUP, 0};
  return !(::poll(&probe, 1, 0) > 0 && (probe.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0);
}

}  // namespace

std::string peer_difference(int connection) {
  ucred peer{};
  socklen_t size = sizeof peer;
  if (::getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0) return "an unknown caller";
  if (peer.uid != ::getuid() || peer.uid != ::geteuid()) return "another user";
  if (peer.gid != ::getgid() || peer.gid != ::getegid()) return "another group";
  std::vector<gid_t> groups;
  if (!peer_groups(connection, groups) || groups != own_groups()) return "other supplementary groups";
  int pidfd = -1;
  socklen_t pidfd_size = sizeof pidfd;
  if (::getsockopt(connection, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &pidfd_size) != 0) pidfd = -1;
  const std::string dir_path = "/proc/" + std::to_string(peer.pid);
  const int process_dir = ::open(dir_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const bool same_place = process_dir >= 0 && same_namespace_and_root(process_dir);
  const bool same_rules = same_place && same_confinement(process_dir);
  // The directory was opened while the peer's pid was still the peer's: it ran then.
  const bool still_the_peer = pidfd >= 0 ? still_running(pidfd) : still_connected(connection);
  if (process_dir >= 0) ::close(process_dir);
  if (pidfd >= 0) ::close(pidfd);
  if (!same_place || !still_the_peer) return "another mount namespace or root directory";
  return same_rules ? std::string() : "another confinement (no_new_privs, seccomp, capabilities or security label)";
}

std::string confinement_lines(const std::string& status) {
  static const char* const kFields[] = {"NoNewPrivs:", "Seccomp:", "Seccomp_filters:", "CapInh:", "CapPrm:",
                                        "CapEff:",     "CapBnd:",  "CapAmb:"};
  std::string lines;
  std::size_t start = 0;
  while (start < status.size()) {
    std::size_t end = status.find('\n', start);
    if (end == std::string::npos) end = status.size();
    const std::string line = status.substr(start, end - start);
    for (const char* field : kFields)
      if (line.rfind(field, 0) == 0) lines += line + "\n";
    start = end + 1;
  }
  return lines;
}

}  // namespace gpufilter::cli
