#include "server_auto.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "gpufilter/io/user_folders.hpp"
#include "server_socket.hpp"

extern char** environ;

namespace gpufilter::cli {
namespace {

std::atomic<bool> g_ran_on_gpu{false};
// The environment as main() found it: a run sets variables of its own (OpenCV's decoder
// limits, CUDA_VISIBLE_DEVICES for one file), which would make the server's identity
// differ from the next command's.
std::vector<std::string> g_initial_environment;

// Where a server runs, starts or ends already: its socket is there or its lock is held.
bool server_present() {
  const std::filesystem::path socket = server_socket_path();
  struct stat status {};
  return ::stat(socket.c_str(), &status) == 0 || server_lock_held(socket);
}

// True the first time for this user (the mark is then made); false after, or where the
// user has no cache folder (nothing to say twice from).
bool first_time_for_user() {
  const std::optional<std::filesystem::path> cache = io::user_cache_folder();
  if (!cache || io::make_private_directories(*cache) != 0) return false;
  const std::filesystem::path mark = *cache / "server-auto-announced";
  std::error_code error;
  if (std::filesystem::exists(mark, error)) return false;
  std::ofstream(mark) << "gpufilter announced its auto-started server once; GPUFILTER_SERVER=off turns it off\n";
  return true;
}

// `gpufilter server start --idle-timeout N`, detached: its own session, the standard
// streams on /dev/null (the server logs beside its socket). Spawned rather than forked:
// this process holds a CUDA context.
bool spawn_server_start() {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  if (posix_spawn_file_actions_init(&actions) != 0) return false;
  if (posix_spawnattr_init(&attributes) != 0) {
    posix_spawn_file_actions_destroy(&actions);
    return false;
  }
  for (int fd = 0; fd < 3; ++fd)
    posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
  const std::string idle = std::to_string(static_cast<long>(kAutoIdleSeconds));
  const char* argv[] = {"gpufilter", "server", "start", "--idle-timeout", idle.c_str(), nullptr};
  std::vector<char*> environment;
  for (std::string& entry : g_initial_environment) environment.push_back(entry.data());
  environment.push_back(nullptr);
  pid_t child = 0;
  const int failed = posix_spawn(&child, "/proc/self/exe", &actions, &attributes, const_cast<char* const*>(argv),
                                 environment.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return failed == 0;
}

}  // namespace

void remember_initial_environment() {
  for (char** entry = environ; *entry != nullptr; ++entry) g_initial_environment.emplace_back(*entry);
}

void note_ran_on_gpu() { g_ran_on_gpu = true; }
bool ran_on_gpu() { return g_ran_on_gpu; }

void leave_a_server_for_later(bool named_devices) {
  const AutoServerFacts facts{server_mode(), ran_on_gpu(), named_devices, ::isatty(STDERR_FILENO) == 1,
                              [](const char* name) { return std::getenv(name); }};
  if (!why_no_auto_server(facts).empty() || server_present()) return;
  if (!spawn_server_start()) return;
  if (first_time_for_user()) {
    std::cerr << "gpufilter: note: a server now starts in the background, so later commands find the GPU warm; it "
                 "stops after "
              << static_cast<long>(kAutoIdleSeconds / 60)
              << " minutes without a command ('gpufilter server stop' ends it, GPUFILTER_SERVER=off keeps it "
                 "from starting)\n";
  }
}

}  // namespace gpufilter::cli
