#include "server_helpers.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>

namespace gpufilter::cli {
namespace {

// Threads of this process: forking is safe only with one (a thread's lock held at the
// fork stays held in the child).
int thread_count() {
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return -1;
  int count = 0;
  while (const dirent* entry = ::readdir(tasks))
    if (entry->d_name[0] != '.') ++count;
  ::closedir(tasks);
  return count;
}

}  // namespace

std::string running_for(const std::string& what, ServerClock::time_point since, ServerClock::time_point now) {
  return "running '" + what + "' for " +
         std::to_string(static_cast<long>(std::chrono::duration<double>(now - since).count())) + " s";
}

bool ServerHelpers::start(int count, const std::function<void(int pair)>& serve) {
  if (count <= 0) return true;
  if (thread_count() != 1) return false;
  for (int i = 0; i < count; ++i) {
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) break;
    std::cout.flush();
    std::cerr.flush();
    const pid_t pid = ::fork();
    if (pid < 0) {
      ::close(pair[0]);
      ::close(pair[1]);
      break;
    }
    if (pid == 0) {
      ::close(pair[0]);
      for (const Helper& other : helpers_) ::close(other.pair);  // the others' pairs are the first process's
      serve(pair[1]);
      std::_Exit(0);
    }
    ::close(pair[1]);
    Helper helper;
    helper.pid = pid;
    helper.pair = pair[0];
    helpers_.push_back(helper);
  }
  return true;
}

bool ServerHelpers::hand_off(const ServerRequest& request, const std::vector<int>& fds, const std::string& what) {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (Helper& helper : helpers_) {
    if (helper.pair < 0 || !helper.warm || helper.running) continue;
    if (!send_request(helper.pair, request, fds)) continue;  // gone: its news will say so
    helper.running = true;
    helper.since = ServerClock::now();
    helper.what = what;
    return true;
  }
  return false;
}

std::vector<int> ServerHelpers::pairs() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::vector<int> pairs;
  for (const Helper& helper : helpers_)
    if (helper.pair >= 0) pairs.push_back(helper.pair);
  return pairs;
}

long ServerHelpers::read_news(int pair, bool& broken) {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (Helper& helper : helpers_) {
    if (helper.pair != pair) continue;
    char news[16];
    const ssize_t n = ::read(pair, news, sizeof news);
    if (n < 0 && errno == EINTR) return 0;
    if (n <= 0) {  // it ended (killed, or its warm-up failed): no more commands for it
      ::close(helper.pair);
      helper.pair = -1;
      helper.running = false;
      return 0;
    }
    long done = 0;
    for (ssize_t i = 0; i < n; ++i) {
      const HelperNews what = static_cast<HelperNews>(news[i]);
      if (what == HelperNews::Warm) helper.warm = true;
      if (what == HelperNews::Done || what == HelperNews::Broken) {
        helper.running = false;
        ++done;
      }
      if (what == HelperNews::Broken) broken = true;
    }
    return done;
  }
  return 0;
}

int ServerHelpers::busy() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  int busy = 0;
  for (const Helper& helper : helpers_)
    if (helper.pair >= 0 && (helper.running || !helper.warm)) ++busy;
  return busy;
}

std::string ServerHelpers::describe(ServerClock::time_point now) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::string text;
  for (const Helper& helper : helpers_) {
    if (helper.pair < 0) continue;
    text += "\nprocess " + std::to_string(helper.pid) + ": ";
    if (!helper.warm)
      text += "warming up";
    else if (helper.running)
      text += running_for(helper.what, helper.since, now);
    else
      text += "free";
  }
  return text;
}

void ServerHelpers::end() {
  std::vector<pid_t> pids;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (Helper& helper : helpers_) {
      if (helper.pair >= 0) ::close(helper.pair);
      helper.pair = -1;
      pids.push_back(helper.pid);
    }
  }
  for (const pid_t pid : pids)
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
}

}  // namespace gpufilter::cli
