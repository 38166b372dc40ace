// End-to-end tests of `gpufilter server` (cli/server.hpp): commands forwarded to a running
// server give what they give in their own process (files, stdout, stderr, exit status),
// in the caller's directory; commands the server must not run (other settings, no
// server, a dead one) still run; start, status, stop and the idle timeout do what they
// say. --device cpu throughout, so they pass on machines without a GPU.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace gpufilter::cli_test {
namespace {

namespace fs = std::filesystem;

class CliServerTest : public ::testing::Test {
 protected:
  CliServerTest() : socket_((server_dir_ / "server.sock").string()) {
    // Every process of the test, the server included, uses this test's own socket.
    ::setenv("GPUFILTER_SERVER_SOCKET", socket_.c_str(), 1);
    ::unsetenv("GPUFILTER_SERVER");
  }
  ~CliServerTest() override {
    run({"server", "stop"});
    ::unsetenv("GPUFILTER_SERVER_SOCKET");
  }

  ProcessResult run(const std::vector<std::string>& args, ProcessOptions options = {}) {
    return run_process(GPUFILTER_CLI_PATH, args, capture_.path(), options);
  }
  // Runs `args` with the working directory `dir`.
  ProcessResult run_in(const fs::path& dir, const std::vector<std::string>& args, ProcessOptions options = {}) {
    const std::string where = dir.string();
    options.before_exec = [where] {
      if (::chdir(where.c_str()) != 0) ::_exit(126);
    };
    return run(args, options);
  }
  ProcessResult local(const std::vector<std::string>& args, ProcessOptions options = {}) {
    options.env.push_back("GPUFILTER_SERVER=off");
    return run(args, options);
  }
  void start_server(const std::string& idle = "60") {
    const ProcessResult started = run({"server", "start", "--idle-timeout", idle});
    ASSERT_EQ(started.exit_code, 0) << started.out << started.err;
    ASSERT_TRUE(contains(started.out, "server started")) << started.out;
  }
  // The number `server status` prints where `pattern`'s group is; -1 when none runs.
  long status_number(const std::string& pattern) {
    const ProcessResult status = run({"server", "status"});
    std::smatch match;
    if (status.exit_code != 0 || !std::regex_search(status.out, match, std::regex(pattern))) return -1;
    return std::stol(match[1].str());
  }
  long commands_run() { return status_number("([0-9]+) commands run"); }
  long server_pid() { return status_number("pid ([0-9]+)"); }
  // `blur` over `files` copies of one image into work_/out, slowly enough (--jobs 1,
  // sigma 4, on the CPU) to be caught running.
  std::vector<std::string> slow_batch(int files) {
    std::vector<std::string> args{"blur"};
    const cv::Mat image = random_image(300, 400, CV_8UC3, 7);
    for (int i = 0; i < files; ++i) {
      const fs::path file = work_ / ("in" + std::to_string(i) + ".png");
      EXPECT_TRUE(cv::imwrite(file.string(), image));
      args.push_back(file.string());
    }
    fs::create_directory(work_ / "out");
    args.insert(args.end(),
                {"--out-dir", (work_ / "out").string(), "--sigma", "4", "--device", "cpu", "--jobs", "1", "--quiet"});
    return args;
  }
  long batch_outputs() {
    long n = 0;
    for (const auto& entry : fs::directory_iterator(work_ / "out"))
      if (!entry.path().filename().string().starts_with(".")) ++n;
    return n;
  }
  std::string write_image(const std::string& name, unsigned seed) {
    const fs::path file = work_ / name;
    EXPECT_TRUE(cv::imwrite(file.string(), random_image(41, 67, CV_8UC3, seed)));
    return file.string();
  }

  ScratchDir server_dir_;
  ScratchDir work_;
  ScratchDir capture_;
  std::string socket_;
};

TEST_F(CliServerTest, ForwardedCommandsMatchTheirOwnProcess) {
  write_image("in.png", 1);
  const ProcessResult alone = local({"blur", (work_ / "in.png").string(), (work_ / "alone.png").string(),
                                     "--sigma", "2", "--device", "cpu"});
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  const ProcessResult alone_stats = local({"stats", (work_ / "in.png").string(), "--csv", "--device", "cpu"});
  ASSERT_EQ(alone_stats.exit_code, 0) << alone_stats.err;

  start_server();
  ASSERT_EQ(commands_run(), 0);
  // Relative paths: the server works in the caller's directory.
  const ProcessResult served = run_in(work_.path(), {"blur", "in.png", "served.png", "--sigma", "2", "--device", "cpu"});
  ASSERT_EQ(served.exit_code, 0) << served.err;
  EXPECT_EQ(served.err, "");
  EXPECT_EQ(read_bytes(work_ / "served.png"), read_bytes(work_ / "alone.png"));
  // Data on stdout, the caller's.
  const ProcessResult stats = run_in(work_.path(), {"stats", "in.png", "--csv", "--device", "cpu"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_EQ(stats.out, alone_stats.out);
  // A failure: the same status and one error line on the caller's stderr.
  const ProcessResult missing = run_in(work_.path(), {"blur", "nothing.png", "out.png", "--device", "cpu"});
  EXPECT_EQ(missing.exit_code, 3);
  EXPECT_TRUE(missing.err.starts_with("gpufilter: error: ")) << missing.err;
  EXPECT_TRUE(contains(missing.err, "nothing.png")) << missing.err;
  EXPECT_FALSE(fs::exists(work_ / "out.png"));
  // --timing runs from the caller's start.
  const ProcessResult timed = run_in(work_.path(), {"blur", "in.png", "timed.png", "--device", "cpu", "--timing"});
  ASSERT_EQ(timed.exit_code, 0) << timed.err;
  EXPECT_TRUE(contains(timed.err, "gpufilter: timing (cpu): ")) << timed.err;
  // Help goes to the caller's stdout too.
  const ProcessResult help = run({"blur", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "--sigma")) << help.out;
  EXPECT_EQ(commands_run(), 5);
}

TEST_F(CliServerTest, CommandsWithOtherSettingsRunInTheirOwnProcess) {
  const std::string in = write_image("in.png", 2);
  start_server();
  // Variables the server did not start with: the tool's, and CUDA's (which GPUs exist).
  for (const char* variable : {"GPUFILTER_JPEG_BATCH=3", "CUDA_VISIBLE_DEVICES=1"}) {
    ProcessOptions other;
    other.env.push_back(variable);
    const ProcessResult run_other = run({"copy", in, (work_ / "a.png").string(), "--device", "cpu"}, other);
    ASSERT_EQ(run_other.exit_code, 0) << variable << ": " << run_other.err;
  }
  // Another pixel limit than the one the server's codecs were loaded with.
  const ProcessResult limit =
      run({"copy", in, (work_ / "b.png").string(), "--device", "cpu", "--max-pixels", "1000000"});
  ASSERT_EQ(limit.exit_code, 0) << limit.err;
  // Forwarding turned off.
  const ProcessResult off = local({"copy", in, (work_ / "c.png").string(), "--device", "cpu"});
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(commands_run(), 0);
  for (const char* name : {"a.png", "b.png", "c.png"})
    EXPECT_EQ(max_difference(read_unchanged(work_ / name), read_unchanged(in)), 0.0) << name;
}

TEST_F(CliServerTest, ADeadServerLeavesCommandsWorking) {
  const std::string in = write_image("in.png", 3);
  start_server();
  const long pid = server_pid();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  ASSERT_TRUE(wait_until([&] { return ::kill(static_cast<pid_t>(pid), 0) != 0; }, std::chrono::seconds(10)));
  ASSERT_TRUE(fs::exists(socket_));  // left behind by the killed server
  const ProcessResult run_alone = run({"copy", in, (work_ / "out.png").string(), "--device", "cpu"});
  ASSERT_EQ(run_alone.exit_code, 0) << run_alone.err;
  EXPECT_EQ(run_alone.err, "");
  EXPECT_EQ(max_difference(read_unchanged(work_ / "out.png"), read_unchanged(in)), 0.0);
  EXPECT_EQ(run({"server", "status"}).exit_code, 1);
  start_server();  // over the stale socket
  EXPECT_EQ(commands_run(), 0);
}

// Ctrl-C on a command waiting for the server stops its batch after the files in flight;
// the server goes on serving.
TEST_F(CliServerTest, ACallerThatGoesAwayStopsItsBatch) {
  constexpr int kFiles = 400;
  const std::vector<std::string> args = slow_batch(kFiles);
  start_server();
  const auto written = [&] { return batch_outputs(); };
  {
    ChildProcess caller(GPUFILTER_CLI_PATH, args, capture_.path());
    ASSERT_TRUE(wait_until([&] { return written() >= 2; }, std::chrono::seconds(60)));
    caller.send(SIGINT);
    const ProcessResult ended = caller.wait();
    EXPECT_EQ(ended.signal, SIGINT);
  }
  // The server finishes the file in flight, then takes the next command.
  ASSERT_TRUE(wait_until([&] { return commands_run() == 1; }, std::chrono::seconds(60)));
  EXPECT_LT(written(), kFiles / 2) << "the batch went on after its caller had gone";
  const ProcessResult next = run({"copy", args[1], (work_ / "next.png").string(), "--device", "cpu"});
  EXPECT_EQ(next.exit_code, 0) << next.err;
  EXPECT_EQ(commands_run(), 2);
}

// While a batch runs: status answers at once and names it; a command sent meanwhile
// waits its turn; stop ends the batch after its files in flight (its caller is told
// how far it got) and the waiting command runs in its own process instead.
TEST_F(CliServerTest, StatusAndStopAnswerWhileABatchRuns) {
  constexpr int kFiles = 400;
  const std::vector<std::string> args = slow_batch(kFiles);
  start_server();
  ChildProcess batch(GPUFILTER_CLI_PATH, args, capture_.path());
  ASSERT_TRUE(wait_until([&] { return batch_outputs() >= 2; }, std::chrono::seconds(60)));
  const ProcessResult status = run({"server", "status"});
  EXPECT_EQ(status.exit_code, 0);
  EXPECT_TRUE(contains(status.out, "running 'blur'")) << status.out;
  ScratchDir waiting_capture;
  ChildProcess waiting(GPUFILTER_CLI_PATH, {"copy", args[1], (work_ / "waited.png").string(), "--device", "cpu"},
                       waiting_capture.path());
  ASSERT_TRUE(wait_until([&] { return contains(run({"server", "status"}).out, "1 waiting"); }, std::chrono::seconds(30)));
  const ProcessResult stopped = run({"server", "stop"});
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  const ProcessResult batch_end = batch.wait();
  EXPECT_EQ(batch_end.exit_code, 5);
  EXPECT_TRUE(contains(batch_end.err, "gpufilter: stopped: ")) << batch_end.err;
  EXPECT_LT(batch_outputs(), kFiles);
  const ProcessResult waited = waiting.wait();
  EXPECT_EQ(waited.exit_code, 0) << waited.err;
  EXPECT_TRUE(fs::exists(work_ / "waited.png"));
  EXPECT_FALSE(fs::exists(socket_));
}

TEST_F(CliServerTest, StartStatusStopAndIdleTimeout) {
  EXPECT_EQ(run({"server", "status"}).exit_code, 1);
  start_server();
  const ProcessResult again = run({"server", "start"});
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_TRUE(contains(again.out, "already running")) << again.out;
  struct stat status {};
  ASSERT_EQ(::stat(socket_.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);  // no other user reaches it
  const ProcessResult stopped = run({"server", "stop"});
  EXPECT_EQ(stopped.exit_code, 0);
  EXPECT_TRUE(contains(stopped.out, "server stopped")) << stopped.out;
  EXPECT_FALSE(fs::exists(socket_));
  EXPECT_EQ(run({"server", "status"}).exit_code, 1);

  start_server("1");
  EXPECT_TRUE(wait_until([&] { return !fs::exists(socket_); }, std::chrono::seconds(20)))
      << "the server did not stop after its idle timeout";

  // Two starts at once: one server, and both say it runs.
  ScratchDir other_capture;
  ChildProcess first(GPUFILTER_CLI_PATH, {"server", "start"}, capture_.path());
  ChildProcess second(GPUFILTER_CLI_PATH, {"server", "start"}, other_capture.path());
  const ProcessResult a = first.wait(), b = second.wait();
  EXPECT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(b.exit_code, 0) << b.err;
  EXPECT_TRUE(contains(a.out + b.out, "server started")) << a.out << b.out;
  EXPECT_GT(server_pid(), 0);
}

TEST_F(CliServerTest, ServerUsageMistakes) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"server"}, {"server", "begin"},
                                               {"server", "start", "--idle-timeout", "-1"}}) {
    const ProcessResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args.back();
    EXPECT_TRUE(r.err.starts_with("gpufilter: error: ")) << r.err;
  }
  const ProcessResult help = run({"server", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "--idle-timeout")) << help.out;
}

}  // namespace
}  // namespace gpufilter::cli_test
