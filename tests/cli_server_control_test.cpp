// `gpufilter server status` and `stop` tell the truth: idle connections to the server do
// not keep them from being answered, and a server that is there but does not answer is
// said to be there (exit status 5), never taken for no server. --device cpu throughout.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_util.hpp"

namespace gpufilter::cli_test {
namespace {

namespace fs = std::filesystem;

// The server's deadline for a whole request (cli/server.cpp): past it an idle caller is
// hung up on anyway, so what the server does before it is only seen before it.
constexpr auto kRequestDeadline = std::chrono::seconds(2);

class ServerControlTest : public ::testing::Test {
 protected:
  ServerControlTest() : socket_((server_dir_ / "server.sock").string()) {
    ::setenv("GPUFILTER_SERVER_SOCKET", socket_.c_str(), 1);
    ::unsetenv("GPUFILTER_SERVER");
  }
  ~ServerControlTest() override {
    run({"server", "stop"});
    ::unsetenv("GPUFILTER_SERVER_SOCKET");
  }

  ProcessResult run(const std::vector<std::string>& args) {
    return run_process(GPUFILTER_CLI_PATH, args, capture_.path());
  }

  sockaddr_un address() const {
    sockaddr_un at{};
    at.sun_family = AF_UNIX;
    std::strncpy(at.sun_path, socket_.c_str(), sizeof at.sun_path - 1);
    return at;
  }
  // A connection to the socket that never sends a byte.
  int connect_idle() const {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const sockaddr_un at = address();
    EXPECT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&at), sizeof at), 0) << std::strerror(errno);
    return fd;
  }
  static bool hung_up(int fd) {
    pollfd probe{fd, POLLRDHUP, 0};
    return ::poll(&probe, 1, 0) > 0 && (probe.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
  }

  ScratchDir server_dir_;
  ScratchDir capture_;
  std::string socket_;
};

// More idle connections than the server reads at once: status and stop, which come after
// them, are still read and answered. The server hangs up on the idle connections that
// waited longest to read the new ones, so the newest idle ones are still open.
TEST_F(ServerControlTest, IdleConnectionsStarveNeitherStatusNorStop) {
  const ProcessResult started = run({"server", "start", "--idle-timeout", "60"});
  ASSERT_EQ(started.exit_code, 0) << started.out << started.err;
  constexpr int kIdle = 40;  // more than the server's 32 readers
  std::vector<int> idle;
  const auto opened = std::chrono::steady_clock::now();
  for (int i = 0; i < kIdle; ++i) idle.push_back(connect_idle());
  const ProcessResult status = run({"server", "status"});
  const bool within_deadline = std::chrono::steady_clock::now() - opened < kRequestDeadline;
  EXPECT_EQ(status.exit_code, 0) << status.out << status.err;
  EXPECT_TRUE(contains(status.out, "a server is running")) << status.out << status.err;
  if (within_deadline) {
    // Before the deadline only the oldest idle connections can have been hung up on.
    EXPECT_TRUE(hung_up(idle.front())) << "the oldest idle connection is still read";
    EXPECT_FALSE(hung_up(idle.back())) << "the newest idle connection was not read";
  }
  const ProcessResult stopped = run({"server", "stop"});
  EXPECT_EQ(stopped.exit_code, 0) << stopped.out << stopped.err;
  EXPECT_TRUE(contains(stopped.out, "server stopped")) << stopped.out << stopped.err;
  EXPECT_FALSE(fs::exists(socket_));
  for (const int fd : idle) ::close(fd);
}

// A process that holds the server's lock and socket but hangs up on every connection
// unanswered: status and stop say a server is there and did not answer, exit 5, and
// name its pid; stop does not claim to have stopped it.
TEST_F(ServerControlTest, AServerThatDoesNotAnswerIsNotTakenForNone) {
  const int lock = ::open((socket_ + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(::flock(lock, LOCK_EX | LOCK_NB), 0);
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const sockaddr_un at = address();
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&at), sizeof at), 0) << std::strerror(errno);
  ASSERT_EQ(::listen(listener, 16), 0);
  std::atomic<bool> done{false};
  std::thread hang_up([&] {
    while (!done.load()) {
      pollfd wait{listener, POLLIN, 0};
      if (::poll(&wait, 1, 20) <= 0) continue;
      const int connection = ::accept(listener, nullptr, nullptr);
      if (connection >= 0) ::close(connection);
    }
  });
  const std::string pid = "pid " + std::to_string(::getpid());

  const ProcessResult status = run({"server", "status"});
  EXPECT_EQ(status.exit_code, 5) << status.out << status.err;
  EXPECT_FALSE(contains(status.out, "no server")) << status.out;
  EXPECT_TRUE(contains(status.err, "did not answer")) << status.err;
  EXPECT_TRUE(contains(status.err, pid)) << status.err;

  const ProcessResult stopped = run({"server", "stop"});
  EXPECT_EQ(stopped.exit_code, 5) << stopped.out << stopped.err;
  EXPECT_FALSE(contains(stopped.out, "no server")) << stopped.out;
  EXPECT_TRUE(contains(stopped.err, "not stopped")) << stopped.err;

  done = true;
  hang_up.join();
  ::close(listener);
  ::unlink(socket_.c_str());
  // The lock alone (a server starting or ending) still counts as a server.
  const ProcessResult locked = run({"server", "status"});
  EXPECT_EQ(locked.exit_code, 5) << locked.out << locked.err;
  EXPECT_TRUE(contains(locked.err, ".lock")) << locked.err;
  ::close(lock);
  const ProcessResult none = run({"server", "status"});
  EXPECT_EQ(none.exit_code, 1) << none.out << none.err;
  EXPECT_TRUE(contains(none.out, "no server is running")) << none.out;
}

}  // namespace
}  // namespace gpufilter::cli_test
