#pragma once
// A batch's progress on stderr: one line redrawn in place on a terminal (files done,
// MB/s read, ETA), nothing when stderr is a file or a pipe, and messages about single
// files printed above it without tearing it.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace gpufilter::cli {

class Progress {
 public:
  // `total` files; the bar is drawn only when `live` (stderr is a terminal, not --quiet).
  Progress(std::size_t total, bool live);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // One file finished (or failed), having read `input_bytes` from its file.
  void file_done(std::uint64_t input_bytes, bool ok);
  // A whole line for stderr (ending in '\n'), printed above the bar.
  void message(const std::string& line);
  // Removes the bar; call before the closing summary.
  void finish();

  std::size_t done() const { return done_; }
  std::size_t failed() const { return failed_; }
  std::uint64_t bytes() const { return bytes_; }
  double elapsed_s() const;

 private:
  void draw_locked();
  void clear_locked();
  void redraw_loop();

  const std::size_t total_;
  const bool live_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::atomic<std::size_t> done_{0};
  std::atomic<std::size_t> failed_{0};
  std::atomic<std::uint64_t> bytes_{0};
  std::mutex mutex_;  // stderr and the fields below
  bool drawn_ = false;
  bool finished_ = false;
  std::condition_variable wake_;
  std::thread redraw_;
};

}  // namespace gpufilter::cli
