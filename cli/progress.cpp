#include "progress.hpp"

#include <cstdio>

#include "gpufilter/io/quiet_stderr.hpp"

namespace gpufilter::cli {
namespace {

std::string clock_text(double seconds) {
  const long total = static_cast<long>(seconds + 0.5);
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
  }
  return text;
}

}  // namespace

Progress::Progress(std::size_t total, bool live) : total_(total), live_(live) {
  // Redrawn on a clock as well as on each file, so a slow first file still shows a bar.
  if (live_) redraw_ = std::thread([this] { redraw_loop(); });
}

Progress::~Progress() { finish(); }

double Progress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

void Progress::file_done(std::uint64_t input_bytes, bool ok) {
  bytes_ += input_bytes;
  if (!ok) ++failed_;
  ++done_;
}

void Progress::message(const std::string& line) {
  const std::lock_guard<std::mutex> lock(mutex_);
  clear_locked();
  io::write_stderr(line);
  if (live_ && !finished_) draw_locked();
}

void Progress::finish() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return;
    finished_ = true;
    clear_locked();
  }
  wake_.notify_all();
  if (redraw_.joinable()) redraw_.join();
}

void Progress::redraw_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!finished_) {
    draw_locked();
    wake_.wait_for(lock, std::chrono::milliseconds(200));
  }
}

void Progress::clear_locked() {
  if (!drawn_) return;
  io::write_stderr("\r\033[K");
  drawn_ = false;
}

void Progress::draw_locked() {
  const std::size_t done = done_;
  const double seconds = elapsed_s();
  const double mb_per_s = seconds > 0.0 ? static_cast<double>(bytes_.load()) / 1e6 / seconds : 0.0;
  char line[160];
  const int percent = total_ ? static_cast<int>(100 * done / total_) : 100;
  std::string eta = "--:--";
  if (done > 0 && done < total_) eta = clock_text(seconds / static_cast<double>(done) * static_cast<double>(total_ - done));
  std::snprintf(line, sizeof line, "\r\033[Kgpufilter: %zu/%zu files (%d%%), %.1f MB/s, ETA %s%s", done, total_,
                percent, mb_per_s, eta.c_str(),
                failed_ ? (", " + std::to_string(failed_.load()) + " failed").c_str() : "");
  io::write_stderr(line);
  drawn_ = true;
}

}  // namespace gpufilter::cli
