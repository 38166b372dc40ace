#include "server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cxxopts.hpp>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "exit_codes.hpp"
#include "fd_watch.hpp"
#include "gpufilter/io/process_paths.hpp"
#include "gpufilter/io/spooled_input.hpp"
#include "server_auto.hpp"
#include "server_helpers.hpp"
#include "server_peer.hpp"
#include "server_socket.hpp"
#include "gpufilter/io/stop_request.hpp"

namespace gpufilter::cli {
namespace {

namespace fs = std::filesystem;

constexpr double kDefaultIdleSeconds = 600;
constexpr int kReadySeconds = 120;  // `server start` waits this long for the warm-up
// A request arrives at once: a caller gets this long for all of it, so a stuck or slow
// one holds only its own reader thread, and only briefly.
constexpr auto kRequestDeadline = std::chrono::seconds(2);
// Connections read at once; one more hangs up on the one that has waited longest.
constexpr std::size_t kMaxReaders = 32;
// How long `server status` and `stop` keep asking a server that is alive (it holds its
// lock or accepts the connection) but closes the connection unanswered: past its
// readers' deadline, so that a burst of idle connections has ended by then.
constexpr auto kAnswerPatience = 2 * kRequestDeadline;
constexpr int kMaxProcesses = 32;

struct ServerOptions {
  std::string action;
  double idle_seconds = kDefaultIdleSeconds;
  int processes = 1;  // warm processes, each running one command at a time (server_helpers.hpp)
};

std::string usage() {
  return "Usage: gpufilter server start|run|stop|status [--idle-timeout SECONDS] [--processes N]\n\n"
         "  start    start a server in the background and wait until it is warm\n"
         "  run      run the server in the foreground (Ctrl-C stops it)\n"
         "  stop     stop the running server (a batch it runs ends after its files in flight,\n"
         "           commands waiting for it run in their own processes)\n"
         "  status   describe the running server (exit status 1 when none runs, 5 when one\n"
         "           runs but does not answer; stop too exits 5 then)\n\n"
         "While a server runs, gpufilter commands of the same build, user, groups, mount\n"
         "namespace, root, resource limits and GPUFILTER_*, CUDA_* and OPENCV_* variables run\n"
         "in it, with the GPU, nvJPEG and codecs already started; the command waits for the\n"
         "result and exits with its status. Each of its processes (--processes) runs one\n"
         "command at a time: one sent while all are busy, or naming /dev/fd/N, /proc/... or\n"
         "<(...), runs in its own process, as does any with GPUFILTER_SERVER=off. Ctrl-C on\n"
         "a waiting command cancels it (a single file writes no OUT; a batch stops after the\n"
         "files in flight). A server that ends while running a command fails it (exit 5);\n"
         "it is not run again.\n\n"
         "Without asking (GPUFILTER_SERVER=auto, the default), a command that ran on a GPU\n"
         "in its own process, from a terminal, outside batch schedulers and CI, without\n"
         "--devices, leaves a server starting in the background (idle timeout " +
         std::to_string(static_cast<int>(kAutoIdleSeconds)) + " s).\n"
         "GPUFILTER_SERVER=on starts one after any GPU run; =off never starts or uses one.\n\n"
         "  --idle-timeout SECONDS  stop after this long without a command (default " +
         std::to_string(static_cast<int>(kDefaultIdleSeconds)) +
         ", 0: never)\n"
         "  --processes N           warm processes, so that N commands at once run side by side,\n"
         "                          each with its own GPU context and codecs (default 1, at most " +
         std::to_string(kMaxProcesses) + ")\n"
         "  socket: $GPUFILTER_SERVER_SOCKET, else $XDG_RUNTIME_DIR/gpufilter-server.sock,\n"
         "          else /tmp/gpufilter-<uid>/server.sock, or ~/.cache/gpufilter/server.sock\n"
         "          where another user made that folder (" +
         server_socket_path().string() + " here)\n";
}

ServerOptions parse_options(int argc, const char* const* argv) {
  cxxopts::Options parser("gpufilter server", "");
  parser.add_options()("idle-timeout", "", cxxopts::value<double>())("processes", "", cxxopts::value<int>())(
      "h,help", "")(
      "action", "", cxxopts::value<std::vector<std::string>>());
  parser.parse_positional({"action"});
  ServerOptions options;
  try {
    // argv[1] is "server": the action follows it.
    const auto result = parser.parse(argc - 1, argv + 1);
    if (result.count("help")) {
      options.action = "help";
      return options;
    }
    const auto actions = result.count("action") ? result["action"].as<std::vector<std::string>>()
                                                : std::vector<std::string>{};
    if (actions.size() != 1) throw CliError(ExitCode::Usage, "'gpufilter server' takes one of start, run, stop, status");
    options.action = actions.front();
    if (result.count("idle-timeout")) options.idle_seconds = result["idle-timeout"].as<double>();
    if (result.count("processes")) options.processes = result["processes"].as<int>();
  } catch (const cxxopts::exceptions::exception& error) {
    throw CliError(ExitCode::Usage, std::string("server: ") + error.what());
  }
  if (options.action != "start" && options.action != "run" && options.action != "stop" && options.action != "status")
    throw CliError(ExitCode::Usage, "unknown server action '" + options.action + "'; use start, run, stop or status");
  if (!(options.idle_seconds >= 0) || !std::isfinite(options.idle_seconds))
    throw CliError(ExitCode::Usage, "--idle-timeout must be a number of seconds, 0 or more");
  if (options.processes < 1 || options.processes > kMaxProcesses)
    throw CliError(ExitCode::Usage, "--processes must be a whole number from 1 to " + std::to_string(kMaxProcesses));
  return options;
}

// ---- asking a running server ----------------------------------------------------------

// What asking the server gave: its reply, or what shows a server there without one.
struct Asked {
  std::optional<ServerReply> reply;
  bool connected = false;  // a process listens at the socket
  pid_t pid = 0;           // that process (the socket's credentials), where connected
  bool locked = false;     // a server holds the lock beside the socket (runs, starts or ends)

  bool server_alive() const { return connected || locked; }
};

Asked ask_once(const fs::path& socket, RequestKind kind) {
  Asked asked;
  const int fd = connect_to_server(socket);
  if (fd >= 0) {
    asked.connected = true;
    ucred peer{};
    socklen_t size = sizeof peer;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0) asked.pid = peer.pid;
    // A server that accepts but never answers (stopped, or hung) is not waited for without
    // end; one still warming up answers well within this.
    const timeval limit{kReadySeconds, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    ServerRequest request;
    request.kind = kind;
    request.identity = build_identity();
    request.limits = caller_limits();
    ServerReply reply;
    if (send_request(fd, request, {}) && receive_reply(fd, reply)) asked.reply = reply;
    ::close(fd);
  }
  if (!asked.reply) asked.locked = server_lock_held(socket);
  return asked;
}

// Asks again, for kAnswerPatience, while a server is alive but hangs up unanswered
// (every reader busy, or the server starting or ending), so that no answer is not
// taken for no server.
Asked ask(const fs::path& socket, RequestKind kind) {
  const auto deadline = ServerClock::now() + kAnswerPatience;
  for (;;) {
    Asked asked = ask_once(socket, kind);
    if (asked.reply || !asked.server_alive() || ServerClock::now() >= deadline) return asked;
    ::usleep(50000);
  }
}

// Says that a server is there but did not answer, with what shows it.
std::string unanswered(const Asked& asked, const fs::path& socket) {
  const std::string who = asked.pid > 0 ? "a server (pid " + std::to_string(asked.pid) + ")" : "a server";
  const std::string shown = asked.connected ? "listens at " + socket.string()
                                            : "holds the lock " + socket.string() + ".lock";
  return who + " " + shown + " but did not answer (it may be starting, ending, stopped or flooded with " +
         "connections); try again";
}

// ---- the server -----------------------------------------------------------------------

// For the signal handler: the socket to remove when SIGINT or SIGTERM ends the server.
char g_socket_path[sizeof(sockaddr_un::sun_path)] = {};

extern "C" void remove_socket_and_exit(int /*signal_number*/) {
  if (g_socket_path[0] != '\0') ::unlink(g_socket_path);
  ::_exit(0);
}

// While a forwarded command runs: a thread that cancels it (stop_request.hpp) as soon as
// its caller hangs up, which is what Ctrl-C on the waiting command does: a batch takes no
// more files, a single file stops at its next safe point and writes no OUT, and nothing
// more reaches the caller's terminal (its stdout and stderr become /dev/null), as when a
// process of its own dies.
class CallerWatch {
 public:
  explicit CallerWatch(int connection) {
    watch_.emplace(connection, POLLRDHUP, [] {
      io::cancel_request() = true;
      io::stop_request() = true;
      const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
      if (null < 0) return;
      ::dup2(null, 1);  // the command's fds 1 and 2 are the caller's until run_forwarded restores them
      ::dup2(null, 2);
      ::close(null);
    });
  }
  ~CallerWatch() {
    watch_.reset();  // its thread is done before the requests are cleared for the next command
    io::stop_request() = false;
    io::cancel_request() = false;
  }
  CallerWatch(const CallerWatch&) = delete;
  CallerWatch& operator=(const CallerWatch&) = delete;

 private:
  std::optional<FdWatch> watch_;
};

class Server {
 public:
  Server(fs::path socket, const ServerOptions& options, const ServerHooks& hooks)
      : socket_(std::move(socket)), options_(options), hooks_(hooks), identity_(build_identity()),
        environment_(tool_environment()), limits_(caller_limits()), up_since_(ServerClock::now()) {}

  // Listens, warms up, tells `ready_fd` (when not -1) "ok" or the error, then serves until
  // idle, stopped or broken. Once it holds the lock (never before: a losing start must
  // not truncate the running server's log), `log` (when not empty) becomes its stdout
  // and stderr. Returns the exit status.
  int run(int ready_fd, const fs::path& log = {}) {
    std::string error;
    if (!listen(error, log)) {
      report_ready(ready_fd, locked_ ? "locked" : "error " + error);
      std::cerr << "gpufilter: error: " << error << std::endl;
      return static_cast<int>(ExitCode::Runtime);
    }
    // Before anything starts a thread or a GPU context: the helpers are forks of this process.
    if (!helpers_.start(options_.processes - 1, [this](int pair) { serve_as_helper(pair); }))
      std::cerr << "gpufilter: note: the server runs in one process (threads were running already)" << std::endl;
    hooks_.warm_up();
    if (ready_fd < 0) std::cerr << "gpufilter: server ready" << std::endl;
    report_ready(ready_fd, "ok " + std::to_string(::getpid()));
    serve_until_done();
    remove_socket();
    // Let a new server start now, not once this process has torn down its GPU contexts
    // (seconds on a large GPU): a `server start` meanwhile would find the lock taken and
    // no server answering.
    ::close(lock_fd_);
    lock_fd_ = -1;
    return 0;
  }

 private:
  bool listen(std::string& error, const fs::path& log) {
    const fs::path lock_path = socket_.string() + ".lock";
    lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd_ < 0 || ::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      locked_ = lock_fd_ >= 0;
      error = "another gpufilter server is running or starting at '" + socket_.string() + "'";
      return false;
    }
    if (!log.empty()) {
      const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      if (log_fd >= 0) {
        ::dup2(log_fd, 1);
        ::dup2(log_fd, 2);
        ::close(log_fd);
      }
    }
    // The lock is ours: whatever socket file is left belongs to a server that is gone.
    ::unlink(socket_.c_str());
    listen_fd_ = listen_at(socket_, error);
    if (listen_fd_ < 0) return false;
    const std::string path = socket_.string();  // fits sun_path: listen_at checked
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0) socket_inode_ = status.st_ino;
    std::memcpy(g_socket_path, path.c_str(), path.size() + 1);
    // A caller's closed pipe must not end the server, nor its terminal's hang-up.
    ::signal(SIGPIPE, SIG_IGN);
    ::signal(SIGHUP, SIG_IGN);
    // A command's writes past a file size limit fail with EFBIG rather than end the server.
    ::signal(SIGXFSZ, SIG_IGN);
    ::signal(SIGINT, remove_socket_and_exit);
    ::signal(SIGTERM, remove_socket_and_exit);
    return true;
  }

  static void report_ready(int fd, const std::string& message) {
    if (fd < 0) return;
    const std::string line = message + '\n';
    [[maybe_unused]] const ssize_t n = ::write(fd, line.data(), line.size());
    ::close(fd);
  }

  // Removes the socket file if it is still the one this server made.
  void remove_socket() {
    struct stat status {};
    if (::stat(socket_.c_str(), &status) == 0 && status.st_ino == socket_inode_) ::unlink(socket_.c_str());
    g_socket_path[0] = '\0';
  }

  // A forwarded command waiting for its turn, with the connection to answer it on.
  struct Pending {
    ServerRequest request;
    std::vector<int> fds;
    int connection = -1;
  };

  // Accepts connections until idle, stopped or broken. Commands run one at a time on the
  // worker thread, or on a free helper process; status and stop are answered here at
  // once, also while commands run. Helpers' news (free again) arrives here too.
  void serve_until_done() {
    std::thread worker([this] { run_commands(); });
    auto idle_since = ServerClock::now();
    for (;;) {
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (ending_) break;
        if (running_ || !queue_.empty()) idle_since = ServerClock::now();
      }
      if (helpers_.busy() > 0) idle_since = ServerClock::now();
      int timeout_ms = 250;  // to see a command end: the idle clock starts, a broken GPU ends the server
      if (options_.idle_seconds > 0) {
        const double left =
            options_.idle_seconds - std::chrono::duration<double>(ServerClock::now() - idle_since).count();
        if (left <= 0) break;
        timeout_ms = static_cast<int>(std::min(left * 1000.0 + 1.0, 250.0));
      }
      std::vector<pollfd> waits{{listen_fd_, POLLIN, 0}};
      for (const int pair : helpers_.pairs()) waits.push_back({pair, POLLIN, 0});
      if (::poll(waits.data(), waits.size(), timeout_ms) <= 0) continue;
      for (std::size_t i = 1; i < waits.size(); ++i) {
        if (waits[i].revents == 0) continue;
        bool broken = false;
        served_.fetch_add(helpers_.read_news(waits[i].fd, broken));
        if (broken) {
          const std::lock_guard<std::mutex> lock(mutex_);
          ending_ = true;
        }
      }
      if ((waits[0].revents & POLLIN) == 0) continue;
      const int connection = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (connection >= 0) read_off_thread(connection);
    }
    std::deque<Pending> left;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      ending_ = true;
      if (running_) io::stop_request() = true;  // a batch ends after its files in flight
      left.swap(queue_);
    }
    work_.notify_all();
    for (Pending& pending : left) finish(pending, {ReplyKind::Declined, 0, "the server is stopping"});
    helpers_.end();  // their batches end after the files in flight, as ours does
    worker.join();
    // The readers must not outlive the server: those still waiting for a request are hung
    // up on (each then ends at once), the others end as they finish.
    std::unique_lock<std::mutex> lock(mutex_);
    for (const int connection : reading_) ::shutdown(connection, SHUT_RDWR);
    reading_.clear();
    readers_done_.wait(lock, [this] { return readers_ == 0; });
  }

  // Reads the connection's request on a thread of its own, so a slow caller delays no
  // other. With kMaxReaders connections being read already, the one that has waited
  // longest is hung up on (its reader then ends at once): a caller sends its request as
  // it connects, so that one is the likeliest idle, and a new connection, status and
  // stop among them, is always read however many idle ones came before it.
  void read_off_thread(int connection) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (reading_.size() >= kMaxReaders) {
        // Still in reading_, so its reader has not closed it: the descriptor is that connection.
        ::shutdown(reading_.front(), SHUT_RDWR);
        reading_.pop_front();
      }
      reading_.push_back(connection);
      ++readers_;
    }
    try {
      std::thread([this, connection] {
        answer(connection);
        const std::lock_guard<std::mutex> lock(mutex_);
        if (--readers_ == 0) readers_done_.notify_all();
      }).detach();
    } catch (const std::system_error&) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (read_done(connection)) ::close(connection);
      if (--readers_ == 0) readers_done_.notify_all();
    }
  }

  // Takes `connection` off the ones being read (mutex_ held); false when it was hung up on
  // meanwhile (its descriptor is still open: the caller closes it).
  bool read_done(int connection) {
    for (auto at = reading_.begin(); at != reading_.end(); ++at) {
      if (*at != connection) continue;
      reading_.erase(at);
      return true;
    }
    return false;
  }

  // One connection: a status or stop request answered now; a command declined at once
  // where it could not run here as in its own process or would have to wait, else queued.
  void answer(int connection) {
    ucred peer{};
    socklen_t size = sizeof peer;
    Pending pending;
    pending.connection = connection;
    const bool received =
        ::getsockopt(connection, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 && peer.uid == ::getuid() &&
        receive_request(connection, pending.request, pending.fds, ServerClock::now() + kRequestDeadline);
    bool kept = false;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      kept = read_done(connection);
    }
    if (!received || !kept) {
      for (const int fd : pending.fds) ::close(fd);
      ::close(connection);
      return;
    }
    switch (pending.request.kind) {
      case RequestKind::Status: finish(pending, {ReplyKind::Status, 0, describe()}); return;
      case RequestKind::Stop: {
        finish(pending, {ReplyKind::Stopping, 0, ""});
        const std::lock_guard<std::mutex> lock(mutex_);
        ending_ = true;
        return;
      }
      case RequestKind::Run: {
        if (const std::string why = decline_reason(pending); !why.empty()) {
          finish(pending, {ReplyKind::Declined, 0, why});
          return;
        }
        std::unique_lock<std::mutex> lock(mutex_);
        if (ending_) {
          lock.unlock();
          finish(pending, {ReplyKind::Declined, 0, "the server is stopping"});
          return;
        }
        if (!running_ && queue_.empty()) {
          queue_.push_back(std::move(pending));
          lock.unlock();
          work_.notify_one();
          return;
        }
        lock.unlock();
        // Busy here: a free helper process takes it, with the caller's fds and the connection.
        std::vector<int> fds = pending.fds;
        fds.push_back(pending.connection);
        if (helpers_.hand_off(pending.request, fds, op_of(pending.request))) {
          for (const int fd : fds) ::close(fd);
          return;
        }
        // Waiting for another command would take longer than starting a process: the
        // caller runs it itself (nothing of it has been read yet).
        finish(pending, {ReplyKind::Declined, 0, "busy"});
        return;
      }
    }
    ::close(connection);
  }

  // Why a forwarded command cannot run here as it would in the caller's own process;
  // empty when it can (the paths it names are checked in the caller's directory, later).
  std::string decline_reason(const Pending& pending) const {
    const ServerRequest& request = pending.request;
    if (request.identity != identity_) return "another build";
    if (request.env != environment_) return "other GPUFILTER_*, CUDA_* or OPENCV_* variables";
    if (pending.fds.size() != 4 || request.args.empty()) return "malformed request";
    if (request.limits != limits_) return "other resource limits (ulimit)";
    return peer_difference(pending.connection);
  }

  // Replies, then closes what the request brought.
  static void finish(Pending& pending, const ServerReply& reply) {
    for (int fd : pending.fds) ::close(fd);
    pending.fds.clear();
    send_reply(pending.connection, reply);
    ::close(pending.connection);
  }

  // Whether the caller has already hung up (gone while its command waited).
  static bool caller_gone(int connection) {
    pollfd probe{connection, POLLRDHUP, 0};
    return ::poll(&probe, 1, 0) > 0 && (probe.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
  }

  // The worker thread: the queued commands, one at a time, until the server ends.
  void run_commands() {
    for (;;) {
      Pending pending;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_.wait(lock, [this] { return ending_ || !queue_.empty(); });
        if (ending_) return;
        pending = std::move(queue_.front());
        queue_.pop_front();
        running_ = true;
        running_since_ = ServerClock::now();
        running_what_ = op_of(pending.request);
      }
      const ServerReply reply = run_unless_gone(pending);
      const bool healthy = hooks_.healthy();
      {
        // Free before the reply: the caller's next command must not find the server busy.
        const std::lock_guard<std::mutex> lock(mutex_);
        running_ = false;
        if (!healthy) ending_ = true;
      }
      finish(pending, reply);
    }
  }

  // The command, unless its caller hung up while it waited.
  ServerReply run_unless_gone(const Pending& pending) {
    if (caller_gone(pending.connection)) return {ReplyKind::Declined, 0, "the caller has gone"};
    return run_forwarded(pending.request, pending.fds, pending.connection);
  }

  static std::string op_of(const ServerRequest& request) { return request.args.size() > 1 ? request.args[1] : ""; }

  // A helper process (server_helpers.hpp): warms up on its own, then runs the requests the
  // first process hands it over `pair`, one at a time, answering their callers itself.
  [[noreturn]] void serve_as_helper(int pair) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // it never outlives the first process
    ::close(listen_fd_);
    ::close(lock_fd_);  // the lock is the first process's: a new server may start once it ends
    g_socket_path[0] = '\0';  // nor is the socket a helper's to remove
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    try {
      hooks_.warm_up();
    } catch (const std::exception& error) {  // the first process stops counting on it
      std::cerr << "gpufilter: error: a server process could not start: " << error.what() << std::endl;
      std::_Exit(static_cast<int>(ExitCode::Runtime));
    }
    auto tell = [pair](HelperNews news) {
      const char byte = static_cast<char>(news);
      return ::write(pair, &byte, 1) == 1;
    };
    if (!tell(HelperNews::Warm)) std::_Exit(0);
    const auto no_deadline = std::chrono::steady_clock::time_point::max();
    for (;;) {
      Pending pending;
      std::vector<int> fds;
      if (!receive_request(pair, pending.request, fds, no_deadline)) break;  // the server ends
      if (fds.size() != 5) {
        for (const int fd : fds) ::close(fd);
        break;
      }
      pending.connection = fds.back();
      fds.pop_back();
      pending.fds = std::move(fds);
      ServerReply reply;
      {
        // The first process writes nothing while a command runs: news on the pair is its end.
        const FdWatch server_end(pair, POLLIN | POLLRDHUP, [] { io::stop_request() = true; });
        reply = run_unless_gone(pending);
      }
      const bool healthy = hooks_.healthy();
      finish(pending, reply);
      if (!tell(healthy ? HelperNews::Done : HelperNews::Broken) || !healthy) break;
    }
    std::cout.flush();
    std::cerr.flush();
    std::_Exit(0);
  }

  std::string describe() const {
    const auto now = ServerClock::now();
    const double up = std::chrono::duration<double>(now - up_since_).count();
    std::string text = "pid " + std::to_string(::getpid()) + ", up " + std::to_string(static_cast<long>(up)) + " s, " +
                       std::to_string(served_.load()) + " commands run, ";
    text += options_.idle_seconds > 0
                ? "stops after " + std::to_string(static_cast<long>(options_.idle_seconds)) + " s without one"
                : "no idle timeout";
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (running_) {
        text += "\n" + running_for(running_what_, running_since_, now) + ", " + std::to_string(queue_.size()) +
                " waiting";
      }
    }
    text += helpers_.describe(now);
    text += "\nsocket " + socket_.string() + "\nbuild " + identity_;
    return text;
  }

  // Runs the command in the caller's directory with its streams and umask: replies
  // Started first, so that the caller never runs it again; declines before that where
  // the command names a path through the caller's process (process_paths.hpp) or the
  // server's fixed settings differ (hooks_.accepts).
  ServerReply run_forwarded(const ServerRequest& request, const std::vector<int>& fds, int connection) {
    // The caller's standard streams and directory for the command's run, then ours back.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    int saved[3];
    for (int i = 0; i < 3; ++i) saved[i] = ::fcntl(i, F_DUPFD_CLOEXEC, 3);
    for (int i = 0; i < 3; ++i) ::dup2(fds[static_cast<std::size_t>(i) + 1], i);
    std::optional<int> code;
    std::string declined;
    std::vector<const char*> argv;
    for (const std::string& arg : request.args) argv.push_back(arg.c_str());
    argv.push_back(nullptr);
    const int argc = static_cast<int>(request.args.size());
    if (::fchdir(fds[0]) != 0) {
      declined = "the caller's directory cannot be entered";
    } else if (io::arguments_through_process(argc, argv.data())) {
      declined = "a path through the caller's process (/proc, /dev/fd)";
    } else if (io::arguments_read_once(argc, argv.data())) {
      declined = "a pipe among the arguments, which the command may read once only";
    } else if (!hooks_.accepts(argc, argv.data())) {
      declined = "settings fixed at the server's start differ";
    } else if (send_reply(connection, {ReplyKind::Started, 0, ""})) {
      const mode_t old_mask = ::umask(static_cast<mode_t>(request.umask & 0777));
      std::cout.clear();
      std::cerr.clear();
      std::clearerr(stdout);
      std::clearerr(stderr);
      const ServerClock::time_point started{
          std::chrono::duration_cast<ServerClock::duration>(std::chrono::nanoseconds(request.started_ns))};
      {
        const CallerWatch watch(connection);
        io::serving_a_caller() = true;
        code = hooks_.serve(argc, argv.data(), started);
        io::serving_a_caller() = false;
      }
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      ::umask(old_mask);
    } else {
      declined = "the caller has gone";
    }
    [[maybe_unused]] const int back = ::chdir("/");
    for (int i = 0; i < 3; ++i) {
      ::dup2(saved[i], i);
      ::close(saved[i]);
    }
    std::cout.clear();
    std::cerr.clear();
    if (!code) return ServerReply{ReplyKind::Declined, 0, declined};
    served_.fetch_add(1);
    return ServerReply{ReplyKind::Ran, *code, ""};
  }

  fs::path socket_;
  ServerOptions options_;
  const ServerHooks& hooks_;
  std::string identity_;
  std::vector<std::string> environment_;
  std::vector<std::int64_t> limits_;  // as `server start` had them, before any library could change them
  ServerClock::time_point up_since_;
  std::atomic<long> served_{0};
  // Shared by the accepting thread and the worker:
  mutable std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable readers_done_;
  int readers_ = 0;  // threads reading a request
  std::deque<int> reading_;  // connections whose request is being read, oldest first
  std::deque<Pending> queue_;
  bool running_ = false;
  bool ending_ = false;
  ServerClock::time_point running_since_;
  std::string running_what_;  // the op of the command running
  int lock_fd_ = -1;
  bool locked_ = false;  // another server holds the lock
  int listen_fd_ = -1;
  ino_t socket_inode_ = 0;
  ServerHelpers helpers_;
};

// Reads the server's first line from `fd`, waiting at most kReadySeconds; "ended" when
// the server closed it without a line (it died starting).
std::string read_ready_line(int fd) {
  std::string line;
  const auto deadline = ServerClock::now() + std::chrono::seconds(kReadySeconds);
  char buffer[256];
  while (line.find('\n') == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - ServerClock::now()).count();
    if (left <= 0) break;
    pollfd wait{fd, POLLIN, 0};
    const int ready = ::poll(&wait, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return line.find('\n') == std::string::npos ? "ended" : line.substr(0, line.find('\n'));
    line.append(buffer, static_cast<std::size_t>(n));
  }
  return line.substr(0, line.find('\n'));
}

int start_server(const fs::path& socket, const ServerOptions& options, const ServerHooks& hooks, int tries = 3) {
  if (const std::optional<ServerReply> running = ask(socket, RequestKind::Status).reply) {
    std::cout << "gpufilter: a server is already running: " << running->text << '\n';
    return 0;
  }
  int ready[2];
  if (::pipe2(ready, O_CLOEXEC) != 0) throw CliError(ExitCode::Runtime, std::string("pipe: ") + std::strerror(errno));
  std::cout.flush();
  std::cerr.flush();
  const pid_t child = ::fork();
  if (child < 0) throw CliError(ExitCode::Runtime, std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    // Detached from the caller's session and terminal, in a grandchild that init adopts.
    ::close(ready[0]);
    ::setsid();
    if (::fork() != 0) ::_exit(0);
    const int null = ::open("/dev/null", O_RDWR);
    for (int i = 0; i < 3; ++i) ::dup2(null, i);  // the log once the lock is ours (Server::run)
    [[maybe_unused]] const int root = ::chdir("/");
    Server server(socket, options, hooks);
    std::_Exit(server.run(ready[1], socket.string() + ".log"));
  }
  ::close(ready[1]);
  ::waitpid(child, nullptr, 0);
  const std::string line = read_ready_line(ready[0]);
  ::close(ready[0]);
  if (line.rfind("ok ", 0) == 0) {
    std::cout << "gpufilter: server started (pid " << line.substr(3) << ") at " << socket.string() << "; "
              << (options.idle_seconds > 0
                      ? "it stops after " + std::to_string(static_cast<long>(options.idle_seconds)) +
                            " s without a command, or with 'gpufilter server stop'"
                      : "'gpufilter server stop' stops it")
              << '\n';
    return 0;
  }
  if (line == "locked") {
    // Another `server start` got there first: once it answers, this one has nothing to do.
    const auto deadline = ServerClock::now() + std::chrono::seconds(kReadySeconds);
    while (ServerClock::now() < deadline) {
      if (const std::optional<ServerReply> running = ask(socket, RequestKind::Status).reply) {
        std::cout << "gpufilter: a server is already running: " << running->text << '\n';
        return 0;
      }
      // The holder ended (or failed to start) without answering: start one after all.
      if (tries > 1 && !server_lock_held(socket)) return start_server(socket, options, hooks, tries - 1);
      ::usleep(20000);
    }
  }
  const std::string log = socket.string() + ".log";
  const std::string why = line.rfind("error ", 0) == 0 ? line.substr(6)
                          : line == "ended"           ? "it ended while starting (see " + log + ")"
                          : line == "locked"          ? "another server holds its lock but does not answer"
                                                      : "it was not ready after " + std::to_string(kReadySeconds) +
                                                            " s (see " + log + ")";
  throw CliError(ExitCode::Runtime, "the server did not start: " + why);
}

int stop_server(const fs::path& socket) {
  const Asked asked = ask(socket, RequestKind::Stop);
  if (!asked.reply) {
    if (asked.server_alive()) throw CliError(ExitCode::Runtime, unanswered(asked, socket) + "; it was not stopped");
    std::cout << "gpufilter: no server is running at " << socket.string() << '\n';
    return 0;
  }
  // It removes its socket as it ends, once the command it runs (if any) has.
  const auto deadline = ServerClock::now() + std::chrono::seconds(kReadySeconds);
  while (::access(socket.c_str(), F_OK) == 0 && ServerClock::now() < deadline) ::usleep(10000);
  if (::access(socket.c_str(), F_OK) == 0) {
    std::cout << "gpufilter: the server is still finishing its command; it ends after it\n";
    return 0;
  }
  std::cout << "gpufilter: server stopped\n";
  return 0;
}

int report_status(const fs::path& socket) {
  const Asked asked = ask(socket, RequestKind::Status);
  if (!asked.reply) {
    if (asked.server_alive()) throw CliError(ExitCode::Runtime, unanswered(asked, socket));
    std::cout << "gpufilter: no server is running at " << socket.string() << '\n';
    return 1;
  }
  const std::optional<ServerReply>& reply = asked.reply;
  std::cout << "gpufilter: a server is running: " << reply->text << '\n';
  if (reply->text.find("\nbuild " + build_identity()) == std::string::npos)
    std::cout << "gpufilter: it is another build than this gpufilter, so this one's commands run in their own "
                 "processes ('gpufilter server stop', then 'start', replaces it)\n";
  return 0;
}

}  // namespace

int run_server_command(int argc, const char* const* argv, const ServerHooks& hooks) {
  const ServerOptions options = parse_options(argc, argv);
  if (options.action == "help") {
    std::cout << usage();
    return 0;
  }
  const fs::path socket = server_socket_path();
  if (options.action == "stop") return stop_server(socket);
  if (options.action == "status") return report_status(socket);
  prepare_socket_directory(socket);
  if (const std::optional<std::string> note = socket_fallback_note()) std::cout << "gpufilter: note: " << *note << '\n';
  if (options.action == "start") return start_server(socket, options, hooks);
  Server server(socket, options, hooks);  // "run": in the foreground
  std::cerr << "gpufilter: server (pid " << ::getpid() << ") starting at " << socket.string() << std::endl;
  return server.run(-1);
}

}  // namespace gpufilter::cli
