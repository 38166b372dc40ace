#pragma once
// Whether the process at the other end of a server connection could do, in its own
// process, exactly what the server would do for it: the same user and group, the same
// supplementary groups (which grant or deny files), the same mount namespace and root
// directory (which decide what a path names). The server runs a caller's command only
// then; any other caller's command runs in its own process (server.hpp).
#include <string>

namespace gpufilter::cli {

// Empty when the peer of the connected unix socket `connection` matches this process;
// else what differs ("other supplementary groups", ...), for the decline's text.
// Race-free where the kernel gives the peer's groups (SO_PEERGROUPS) and a pidfd
// (SO_PEERPIDFD, Linux 6.5): the namespace and root are read through /proc/<pid> and
// kept only if that pid is still the peer's process afterwards. Without a pidfd, the
// peer must still be connected after the reads. Anything unreadable counts as different.
std::string peer_difference(int connection);

}  // namespace gpufilter::cli
