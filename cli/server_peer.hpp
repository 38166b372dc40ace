#pragma once
// Whether the process at the other end of a server connection could do, in its own
// process, exactly what the server would do for it: the same user and group, the same
// supplementary groups (which grant or deny files), the same mount namespace and root
// directory (which decide what a path names), and the same confinement: no_new_privs,
// seccomp mode and filter count, the five capability sets and the security module's
// label (AppArmor, SELinux). A Landlock domain cannot be read from another process; a
// process restricts itself with Landlock only after setting no_new_privs (or holding
// CAP_SYS_ADMIN, which differs in the capability sets), so a confined caller differs from
// a server without either. The server runs a caller's command only when all match; any
// other caller's command runs in its own process (server.hpp).
#include <string>

namespace gpufilter::cli {

// Empty when the peer of the connected unix socket `connection` matches this process;
// else what differs ("other supplementary groups", ...), for the decline's text.
// Race-free where the kernel gives the peer's groups (SO_PEERGROUPS) and a pidfd
// (SO_PEERPIDFD, Linux 6.5): the namespace and root are read through /proc/<pid> and
// kept only if that pid is still the peer's process afterwards. Without a pidfd, the
// peer must still be connected after the reads. Anything unreadable counts as different.
std::string peer_difference(int connection);

// The lines of a /proc/<pid>/status text that say how the process is confined
// (NoNewPrivs, Seccomp, Seccomp_filters, CapInh, CapPrm, CapEff, CapBnd, CapAmb), in
// order: two processes with equal results are confined alike. Plain text in, for tests.
std::string confinement_lines(const std::string& status);

}  // namespace gpufilter::cli
