#include "temp_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <string>
#include <system_error>

namespace gpufilter::cli {
namespace {

// Ctrl-C or a kill while encoding must not leave the temporary file behind. The handler
// may only use async-signal-safe calls, hence the fixed buffer and unlink().
char g_pending_path[4096];
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[std::size(kCleanupSignals)];
bool g_watching = false;

extern "C" void remove_pending_and_reraise(int signal_number) {
  if (g_pending_path[0] != '\0') ::unlink(g_pending_path);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

void watch_signals(const std::filesystem::path& path) {
  const std::string text = path.string();
  if (text.size() >= sizeof g_pending_path) return;
  std::memcpy(g_pending_path, text.c_str(), text.size() + 1);
  struct sigaction action {};
  action.sa_handler = remove_pending_and_reraise;
  sigemptyset(&action.sa_mask);
  for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i) {
    ::sigaction(kCleanupSignals[i], &action, &g_previous[i]);
  }
  g_watching = true;
}

void unwatch_signals() {
  if (!g_watching) return;
  g_watching = false;
  for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i) {
    ::sigaction(kCleanupSignals[i], &g_previous[i], nullptr);
  }
  g_pending_path[0] = '\0';
}

}  // namespace

TemporaryFile::TemporaryFile(const std::filesystem::path& target) : target_(target) {
  const std::string name = "." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) +
                           target.extension().string();
  path_ = target.parent_path() / name;
  watch_signals(path_);
}

TemporaryFile::~TemporaryFile() {
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  unwatch_signals();
}

void TemporaryFile::commit() {
  // Without the fsync a crash soon after the rename can leave an empty OUT on some file
  // systems: the rename reaches the disk before the data.
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  // A replaced OUT keeps its permissions; the encoder created the new file with defaults.
  std::error_code error;
  const auto previous = std::filesystem::status(target_, error);
  if (!error && std::filesystem::exists(previous)) {
    std::filesystem::permissions(path_, previous.permissions(), error);
  }
  std::filesystem::rename(path_, target_);
  committed_ = true;
}

}  // namespace gpufilter::cli
