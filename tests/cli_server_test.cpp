// End-to-end tests of `gpufilter server` (cli/server.hpp): commands forwarded to a running
// server give what they give in their own process (files, stdout, stderr, exit status),
// in the caller's directory; commands the server must not run (other settings, no
// server, a dead one) still run; start, status, stop and the idle timeout do what they
// say. --device cpu throughout, so they pass on machines without a GPU.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <filesystem>
#include <functional>
#include <utility>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "cli_test_util.hpp"
#include "gpufilter/gpufilter.hpp"

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
  void start_server(const std::string& idle = "60", const ProcessOptions& options = {}, int processes = 1) {
    const ProcessResult started =
        run({"server", "start", "--idle-timeout", idle, "--processes", std::to_string(processes)}, options);
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
  // Commands running in the server's processes now, from `server status`.
  long commands_running() {
    const std::string status = run({"server", "status"}).out;
    long n = 0;
    for (std::size_t at = status.find("running '"); at != std::string::npos; at = status.find("running '", at + 1)) ++n;
    return n;
  }
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
    const std::string name = std::string(variable).substr(0, std::string(variable).find('=')) + ".png";
    const ProcessResult run_other = run({"copy", in, (work_ / name).string(), "--device", "cpu"}, other);
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
  for (const char* name : {"GPUFILTER_JPEG_BATCH.png", "CUDA_VISIBLE_DEVICES.png", "b.png", "c.png"})
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
// does not wait behind it but runs in its own process at once; stop ends the batch after
// its files in flight (its caller is told how far it got).
TEST_F(CliServerTest, StatusAndStopAnswerWhileABatchRuns) {
  constexpr int kFiles = 400;
  const std::vector<std::string> args = slow_batch(kFiles);
  start_server();
  ChildProcess batch(GPUFILTER_CLI_PATH, args, capture_.path());
  ASSERT_TRUE(wait_until([&] { return batch_outputs() >= 2; }, std::chrono::seconds(60)));
  const ProcessResult status = run({"server", "status"});
  EXPECT_EQ(status.exit_code, 0);
  EXPECT_TRUE(contains(status.out, "running 'blur'")) << status.out;
  ScratchDir meanwhile_capture;
  const ProcessResult meanwhile = run_process(
      GPUFILTER_CLI_PATH, {"copy", args[1], (work_ / "meanwhile.png").string(), "--device", "cpu"},
      meanwhile_capture.path());
  EXPECT_EQ(meanwhile.exit_code, 0) << meanwhile.err;
  EXPECT_TRUE(fs::exists(work_ / "meanwhile.png"));
  EXPECT_TRUE(batch.running()) << "the command waited for the batch";
  EXPECT_EQ(commands_run(), 0);  // the batch still runs; the copy ran in its own process
  const ProcessResult stopped = run({"server", "stop"});
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
  const ProcessResult batch_end = batch.wait();
  EXPECT_EQ(batch_end.exit_code, 5);
  EXPECT_TRUE(contains(batch_end.err, "gpufilter: stopped: ")) << batch_end.err;
  EXPECT_LT(batch_outputs(), kFiles);
  EXPECT_FALSE(fs::exists(socket_));
}

// A caller that sends its request a byte at a time holds neither status nor commands:
// requests are read off the accepting thread, within one deadline for all of it.
TEST_F(CliServerTest, ASlowCallerDelaysNoOther) {
  const std::string in = write_image("in.png", 8);
  start_server();
  const int slow = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket_.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::connect(slow, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::send(slow, "G", 1, MSG_NOSIGNAL), 1);
  const auto before = std::chrono::steady_clock::now();
  const ProcessResult status = run({"server", "status"});
  const ProcessResult copied = run({"copy", in, (work_ / "out.png").string(), "--device", "cpu"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
  EXPECT_EQ(status.exit_code, 0);
  EXPECT_EQ(copied.exit_code, 0) << copied.err;
  EXPECT_LT(seconds, 1.5) << "status and a command waited for a slow caller";
  EXPECT_EQ(commands_run(), 1);
  // Past its deadline the slow caller is hung up on.
  char byte;
  timeval limit{10, 0};
  ::setsockopt(slow, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  EXPECT_EQ(::recv(slow, &byte, 1, 0), 0) << "the server still waits for the slow caller";
  ::close(slow);
}

// A server that ends while it runs a command: the caller says so and fails, and does not
// run the command again (its standard input may have been read).
TEST_F(CliServerTest, AServerThatEndsMidCommandIsAnError) {
  const std::string in = write_image("in.png", 4);
  ProcessOptions paused;  // the server holds the finished output 4 s before its rename
  paused.env.push_back("GPUFILTER_TEST_PAUSE_BEFORE_COMMIT_MS=4000");
  start_server("60", paused);
  const long pid = server_pid();
  ASSERT_GT(pid, 0);
  const std::string out = (work_ / "out.png").string();
  ScratchDir caller_capture;
  ChildProcess caller(GPUFILTER_CLI_PATH, {"copy", in, out, "--device", "cpu"}, caller_capture.path(), paused);
  ASSERT_TRUE(wait_until([&] { return contains(run({"server", "status"}).out, "running 'copy'"); },
                         std::chrono::seconds(30)));
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  const ProcessResult ended = caller.wait();
  EXPECT_EQ(ended.exit_code, 5) << ended.err;
  EXPECT_EQ(ended.err_lines().size(), 1u) << ended.err;
  EXPECT_TRUE(contains(ended.err, "the server ended while running the command, which is not run again")) << ended.err;
  EXPECT_TRUE(contains(ended.err, "OUT '" + out + "'")) << ended.err;
  EXPECT_FALSE(fs::exists(out)) << "the command ran again";
}

// Ctrl-C on a single file the server runs: it stops at its next safe point and writes
// no OUT, as its own process would have died; the server takes the next command. The
// server holds every finished output before its rename (the test hook, which a gone
// caller ends), so the signal always comes before the commit, however fast the blur.
TEST_F(CliServerTest, ACallerThatGoesAwayWritesNoOutput) {
  const std::string in = write_image("in.png", 9);
  ProcessOptions paused;
  paused.env.push_back("GPUFILTER_TEST_PAUSE_BEFORE_COMMIT_MS=120000");
  start_server("60", paused);
  const fs::path out = work_ / "out.png";
  {
    ScratchDir caller_capture;
    // The caller's GPUFILTER_* variables must be the server's for the server to take its
    // command (server_socket's tool_environment), the test hook's too.
    ChildProcess caller(GPUFILTER_CLI_PATH, {"blur", in, out.string(), "--device", "cpu"}, caller_capture.path(),
                        paused);
    ASSERT_TRUE(wait_until([&] { return contains(run({"server", "status"}).out, "running 'blur'"); },
                           std::chrono::seconds(30)));
    caller.send(SIGINT);
    EXPECT_EQ(caller.wait().signal, SIGINT);
  }
  ASSERT_TRUE(wait_until([&] { return commands_run() == 1; }, std::chrono::seconds(60)));
  EXPECT_FALSE(fs::exists(out)) << "the server wrote OUT for a caller that had gone";
  for (const std::string& name : work_.entries()) EXPECT_FALSE(name.starts_with(".out.png")) << name;
  // The next command (one that writes to the standard output, which the hook does not hold).
  const ProcessResult next = run({"stats", in, "--device", "cpu"}, paused);
  EXPECT_EQ(next.exit_code, 0) << next.err;
  EXPECT_EQ(commands_run(), 2);
}

// A caller confined more than the server (no_new_privs, as a Landlock sandbox sets; a
// dropped bounding capability, as `setpriv --bounding-set` does; a seccomp filter) could
// be denied what the server may do: its command runs in its own process.
TEST_F(CliServerTest, CallersConfinedOtherwiseRunInTheirOwnProcess) {
  const std::string in = write_image("in.png", 5);
  start_server();
  const ProcessResult plain = run({"copy", in, (work_ / "plain.png").string(), "--device", "cpu"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(commands_run(), 1) << "a caller confined as the server is served";

  std::vector<std::pair<std::string, std::function<void()>>> confinements;
  confinements.emplace_back("no_new_privs", [] {
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) ::_exit(125);
  });
  if (::geteuid() == 0) {
    confinements.emplace_back("a dropped bounding capability", [] {
      if (::prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0) != 0) ::_exit(125);
    });
    confinements.emplace_back("a seccomp filter", [] {
      static sock_filter allow_all[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
      static sock_fprog program = {1, allow_all};
      if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0) ::_exit(125);
    });
  }
  int index = 0;
  for (const auto& [name, confine] : confinements) {
    ProcessOptions options;
    options.before_exec = confine;
    const fs::path out = work_ / ("confined" + std::to_string(++index) + ".png");
    const ProcessResult confined = run({"copy", in, out.string(), "--device", "cpu"}, options);
    EXPECT_EQ(confined.exit_code, 0) << name << ": " << confined.err;
    EXPECT_TRUE(fs::exists(out)) << name;
    EXPECT_EQ(commands_run(), 1) << "the server ran a command for a caller with " << name;
  }
}

// A caller whose supplementary groups differ from the server's may be denied files the
// server could read: its command runs in its own process. The same for other resource
// limits (ulimit -f), while the caller's umask is applied to what the server writes.
TEST_F(CliServerTest, CallersOfOtherGroupsOrLimitsRunInTheirOwnProcess) {
  if (::geteuid() != 0) GTEST_SKIP() << "changing groups needs root";
  const std::string in = write_image("in.png", 5);
  ProcessOptions more_groups;
  more_groups.before_exec = [] {
    const gid_t groups[] = {::getgid(), 4242};
    if (::setgroups(2, groups) != 0) ::_exit(125);
  };
  start_server("60", more_groups);
  const ProcessResult same = run({"copy", in, (work_ / "same.png").string(), "--device", "cpu"}, more_groups);
  ASSERT_EQ(same.exit_code, 0) << same.err;
  ASSERT_EQ(commands_run(), 1);
  const ProcessResult fewer = run({"copy", in, (work_ / "fewer.png").string(), "--device", "cpu"});
  EXPECT_EQ(fewer.exit_code, 0) << fewer.err;
  EXPECT_EQ(commands_run(), 1) << "the server ran a command for a caller with fewer groups";

  // Files of at most 16 KiB (ulimit -f 16): a 180 KB PNG cannot be written, as in the
  // caller's own process.
  const fs::path big = work_ / "big.png";
  ASSERT_TRUE(cv::imwrite(big.string(), random_image(200, 300, CV_8UC3, 6)));
  ProcessOptions small_files = more_groups;
  small_files.before_exec = [groups = more_groups.before_exec] {
    groups();
    const rlimit limit{16384, 16384};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(125);
  };
  const ProcessResult limited = run({"copy", big.string(), (work_ / "limited.png").string(), "--device", "cpu"},
                                    small_files);
  EXPECT_NE(limited.exit_code, 0) << "a file past the caller's size limit was written";
  EXPECT_FALSE(fs::exists(work_ / "limited.png"));
  EXPECT_EQ(commands_run(), 1);

  ProcessOptions private_files = more_groups;
  private_files.before_exec = [groups = more_groups.before_exec] {
    groups();
    ::umask(077);
  };
  const ProcessResult masked = run({"copy", in, (work_ / "private.png").string(), "--device", "cpu"}, private_files);
  ASSERT_EQ(masked.exit_code, 0) << masked.err;
  EXPECT_EQ(commands_run(), 2);
  struct stat status {};
  ASSERT_EQ(::stat((work_ / "private.png").c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
}

// A caller in another mount namespace may see other files under the same paths.
TEST_F(CliServerTest, CallersOfAnotherMountNamespaceRunInTheirOwnProcess) {
  const std::string in = write_image("in.png", 6);
  start_server();
  ProcessOptions other_namespace;
  other_namespace.before_exec = [] {
    if (::unshare(CLONE_NEWNS) != 0) ::_exit(77);
  };
  const ProcessResult r = run({"copy", in, (work_ / "out.png").string(), "--device", "cpu"}, other_namespace);
  if (r.exit_code == 77) GTEST_SKIP() << "no new mount namespace here (unshare needs CAP_SYS_ADMIN)";
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(work_ / "out.png"));
  EXPECT_EQ(commands_run(), 0);
}

// /dev/fd/N (a shell's <(...)), /proc/self/... and links to them name the caller's own
// files: such a command runs in the caller's process, never in the server's.
TEST_F(CliServerTest, PathsThroughTheCallersProcessRunThere) {
  const std::string in = write_image("in.png", 7);
  const ProcessResult alone = local({"stats", in, "--csv", "--device", "cpu"});
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  start_server();
  const std::string where = work_.path().string();
  ProcessOptions fd7;
  fd7.before_exec = [in, where] {
    const int fd = ::open(in.c_str(), O_RDONLY);
    if (fd < 0 || ::dup2(fd, 7) != 7 || ::chdir(where.c_str()) != 0) ::_exit(126);
  };
  fs::create_symlink("/proc/self/fd/7", work_ / "link.png");
  for (const std::string& path : {std::string("/dev/fd/7"), std::string("/proc/self/fd/7"), std::string("link.png")}) {
    const ProcessResult r = run({"stats", path, "--csv", "--device", "cpu"}, fd7);
    EXPECT_EQ(r.exit_code, 0) << path << ": " << r.err;
    EXPECT_EQ(r.out, alone.out) << path;
  }
  EXPECT_EQ(commands_run(), 0);
  // In a --from-file list, which the caller cannot check without reading it, the server
  // refuses such a path rather than read its own fd 7.
  write_bytes(work_ / "list.txt", "/dev/fd/7\n");
  const std::vector<std::string> batch{"copy", "--from-file", "list.txt", "--out-dir", "out", "--format", "png", "--device", "cpu"};
  const ProcessResult served = run(batch, fd7);
  EXPECT_EQ(served.exit_code, 2) << served.err;
  EXPECT_TRUE(contains(served.err, "'/dev/fd/7' (--from-file) names a file through the process")) << served.err;
  EXPECT_EQ(commands_run(), 1);
  const ProcessResult alone_batch = local(batch, fd7);
  EXPECT_EQ(alone_batch.exit_code, 0) << alone_batch.err;
  EXPECT_TRUE(fs::exists(work_ / "out" / "7.png")) << "the listed file was not copied in its own process";
}

// A named pipe among the arguments can be read once: a server reads the command line
// when it decides whether to take it and again when it runs it, so it leaves such a
// command to the caller's own process (`--kernel-file ff` waited there for a second
// writer that never came).
TEST_F(CliServerTest, NamedPipesRunInTheCallersProcess) {
  const std::string in = write_image("in.png", 8);
  const std::string out = (work_ / "out.png").string();
  start_server();
  const std::string fifo = (work_ / "mask").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::atomic<bool> over{false};
  std::thread writer([&] {
    const std::string mask = "0 -1 0\n-1 5 -1\n0 -1 0\n";
    int fd = -1;
    while (fd < 0 && !over) {
      fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // ENXIO while no reader has it open
      if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (fd < 0) return;
    ::fcntl(fd, F_SETFL, 0);
    [[maybe_unused]] const ssize_t wrote = ::write(fd, mask.data(), mask.size());
    ::close(fd);
  });
  ChildProcess caller(GPUFILTER_CLI_PATH, {"convolve", in, out, "--kernel-file", fifo, "--device", "cpu"},
                      capture_.path());
  const bool ended = wait_until([&] { return !caller.running(); }, std::chrono::seconds(60));
  if (!ended) caller.send(SIGKILL);
  over = true;
  writer.join();
  ASSERT_TRUE(ended) << "convolve --kernel-file with a named pipe did not end";
  const ProcessResult piped = caller.wait();
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(commands_run(), 0);
  const ProcessResult given =
      local({"convolve", in, (work_ / "given.png").string(), "--kernel", "0 -1 0; -1 5 -1; 0 -1 0", "--device", "cpu"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_EQ(read_bytes(out), read_bytes(work_ / "given.png"));
}

// GPUFILTER_SERVER_SOCKET=rel.sock is in the directory where it was given, not in "/"
// where the server works.
TEST_F(CliServerTest, ARelativeSocketPathIsTheCallersDirectory) {
  ProcessOptions relative;
  relative.env.push_back("GPUFILTER_SERVER_SOCKET=rel.sock");
  const ProcessResult started = run_in(work_.path(), {"server", "start"}, relative);
  ASSERT_EQ(started.exit_code, 0) << started.err;
  EXPECT_TRUE(fs::exists(work_ / "rel.sock"));
  EXPECT_EQ(run_in(work_.path(), {"server", "status"}, relative).exit_code, 0);
  EXPECT_EQ(run_in(work_.path(), {"server", "stop"}, relative).exit_code, 0);
  EXPECT_FALSE(fs::exists(work_ / "rel.sock"));
}

// A start that loses to a server already starting leaves that server's log alone.
TEST_F(CliServerTest, ALosingStartLeavesTheLogAlone) {
  const std::string log = socket_ + ".log";
  const int lock = ::open((socket_ + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(lock, 0);
  ASSERT_EQ(::flock(lock, LOCK_EX), 0);  // a server starting, not yet answering
  write_bytes(log, "the starting server's log\n");
  ScratchDir start_capture;
  ChildProcess second(GPUFILTER_CLI_PATH, {"server", "start"}, start_capture.path());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // its server has tried the lock
  EXPECT_EQ(read_bytes(log), "the starting server's log\n");
  ::close(lock);  // the holder ended without answering: this start starts one
  const ProcessResult started = second.wait();
  EXPECT_EQ(started.exit_code, 0) << started.err;
  EXPECT_GT(server_pid(), 0);
}

// The default folder /tmp/gpufilter-<uid> made by another user first: the server goes
// to ~/.cache/gpufilter instead, says so, and its callers find it there.
TEST_F(CliServerTest, AnotherUsersDefaultFolderIsSteppedAround) {
  if (::geteuid() != 0) GTEST_SKIP() << "making a folder of another user needs root";
  ScratchDir temp, home;
  const fs::path taken = temp / ("gpufilter-" + std::to_string(::getuid()));
  fs::create_directory(taken);
  ASSERT_EQ(::chown(taken.c_str(), 4242, 4242), 0);
  ProcessOptions defaults;
  defaults.env = {"GPUFILTER_SERVER_SOCKET=", "XDG_RUNTIME_DIR=", "XDG_CACHE_HOME=", "TMPDIR=" + temp.path().string(),
                  "HOME=" + home.path().string()};
  const ProcessResult started = run({"server", "start"}, defaults);
  ASSERT_EQ(started.exit_code, 0) << started.err;
  EXPECT_TRUE(contains(started.out, "is not this user's alone")) << started.out;
  EXPECT_TRUE(fs::exists(home / ".cache/gpufilter/server.sock"));
  const std::string in = write_image("in.png", 8);
  const ProcessResult copied = run({"copy", in, (work_ / "out.png").string(), "--device", "cpu"}, defaults);
  EXPECT_EQ(copied.exit_code, 0) << copied.err;
  const ProcessResult status = run({"server", "status"}, defaults);
  EXPECT_TRUE(contains(status.out, "1 commands run")) << status.out;
  EXPECT_EQ(run({"server", "stop"}, defaults).exit_code, 0);
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
                                               {"server", "start", "--idle-timeout", "-1"},
                                               {"server", "start", "--processes", "0"},
                                               {"server", "run", "--processes", "33"}}) {
    const ProcessResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args.back();
    EXPECT_TRUE(r.err.starts_with("gpufilter: error: ")) << r.err;
  }
  const ProcessResult help = run({"server", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_TRUE(contains(help.out, "--idle-timeout")) << help.out;
  EXPECT_TRUE(contains(help.out, "--processes")) << help.out;
}

// --processes 3: three commands at once run side by side in the server's three warm
// processes; a fourth, sent while all three are busy, runs in its own process at once
// rather than wait. Each writes what its own process would. Stopping the server ends
// every process of it.
TEST_F(CliServerTest, CommandsAtOnceRunSideBySideInItsProcesses) {
  ProcessOptions paused;  // each command holds its finished output 1.5 s before the rename
  paused.env.push_back("GPUFILTER_TEST_PAUSE_BEFORE_COMMIT_MS=1500");
  start_server("60", paused, 3);
  // Both helpers warm (on a GPU each starts its own context first): a command sent while
  // one warms up would run in its own process.
  const auto free_helpers = [&] {
    const std::string status = run({"server", "status"}).out;
    const std::regex free_line("process [0-9]+: free");
    return std::distance(std::sregex_iterator(status.begin(), status.end(), free_line), std::sregex_iterator());
  };
  ASSERT_TRUE(wait_until([&] { return free_helpers() == 2; }, std::chrono::seconds(60)))
      << run({"server", "status"}).out;
  const std::string in = write_image("in.png", 9);
  const ProcessResult expected = local({"invert", in, (work_ / "expected.png").string(), "--device", "cpu"});
  ASSERT_EQ(expected.exit_code, 0) << expected.err;
  std::vector<ScratchDir> captures(4);
  std::vector<std::unique_ptr<ChildProcess>> callers;
  for (int i = 0; i < 4; ++i) {
    callers.push_back(std::make_unique<ChildProcess>(
        GPUFILTER_CLI_PATH,
        std::vector<std::string>{"invert", in, (work_ / ("out" + std::to_string(i) + ".png")).string(), "--device", "cpu"},
        captures[static_cast<std::size_t>(i)].path(), paused));
    if (i < 3) {  // each taken before the next is sent, so the fourth finds all three busy
      ASSERT_TRUE(wait_until([&] { return commands_running() == i + 1; }, std::chrono::seconds(30))) << i;
    }
  }
  for (int i = 0; i < 4; ++i) {
    const ProcessResult done = callers[static_cast<std::size_t>(i)]->wait();
    EXPECT_EQ(done.exit_code, 0) << i << done.err;
    EXPECT_EQ(read_bytes(work_ / ("out" + std::to_string(i) + ".png")), read_bytes(work_ / "expected.png")) << i;
  }
  EXPECT_EQ(commands_run(), 3) << "three ran in the server, the fourth in its own process";
  const std::string status = run({"server", "status"}).out;
  std::vector<long> helpers;
  const std::regex helper_line("process ([0-9]+): free");
  for (std::sregex_iterator it(status.begin(), status.end(), helper_line), end; it != end; ++it)
    helpers.push_back(std::stol((*it)[1].str()));
  ASSERT_EQ(helpers.size(), 2u) << status;
  EXPECT_EQ(run({"server", "stop"}).exit_code, 0);
  for (const long pid : helpers)
    EXPECT_TRUE(wait_until([&] { return ::kill(static_cast<pid_t>(pid), 0) != 0; }, std::chrono::seconds(20)))
        << "helper " << pid << " outlived the server";
}

// ---- the server without asking (cli/server_auto.hpp, cli/server_rule.hpp) ---------------

// A command on the CPU leaves no server, even with GPUFILTER_SERVER=on: there is no GPU
// context to keep.
TEST_F(CliServerTest, ACpuRunLeavesNoServer) {
  write_image("in.png", 3);
  ProcessOptions on;
  on.env.push_back("GPUFILTER_SERVER=on");
  const ProcessResult ran = run({"blur", (work_ / "in.png").string(), (work_ / "out.png").string(), "--device", "cpu"}, on);
  ASSERT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(ran.err, "");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(run({"server", "status"}).exit_code, 1) << "a server started after a CPU run";
}

// On a GPU: GPUFILTER_SERVER=on leaves a server starting after the command, which runs
// the next one; a command that names its GPUs leaves none.
TEST_F(CliServerTest, AGpuRunLeavesAServerForTheNextCommand) {
  if (!has_device()) GTEST_SKIP() << "no usable GPU: " << no_device_reason();
  write_image("in.png", 4);
  ProcessOptions on;
  on.env.push_back("GPUFILTER_SERVER=on");
  on.env.push_back("XDG_CACHE_HOME=" + (work_ / "cache").string());  // the announcement's mark
  const std::string in = (work_ / "in.png").string();
  const ProcessResult named = run({"blur", in, (work_ / "named.png").string(), "--devices", "0"}, on);
  ASSERT_EQ(named.exit_code, 0) << named.err;
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(run({"server", "status"}).exit_code, 1) << "--devices 0 left a server";

  const ProcessResult first = run({"blur", in, (work_ / "first.png").string()}, on);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(contains(first.err, "a server now starts in the background")) << "announced the first time: " << first.err;
  bool answered = false;
  for (int i = 0; i < 200 && !answered; ++i) {
    answered = run({"server", "status"}).exit_code == 0;
    if (!answered) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(answered) << "no server answered within 20 s of a GPU run with GPUFILTER_SERVER=on";
  const ProcessResult second = run({"blur", in, (work_ / "second.png").string()}, on);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(commands_run(), 1) << "the next command ran in its own process";
  EXPECT_EQ(read_bytes(work_ / "second.png"), read_bytes(work_ / "first.png"));
}

}  // namespace
}  // namespace gpufilter::cli_test
