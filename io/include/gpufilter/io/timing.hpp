#pragma once
/// @file
/// Stage times for --timing: wall-clock for host stages, CUDA events for device ones.
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gpufilter::io {

class Stopwatch {
 public:
  Stopwatch() = default;
  explicit Stopwatch(std::chrono::steady_clock::time_point start) : start_(start) {}

  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }
  void restart() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// The main thread's stages follow one another; "other" is the rest of the total (checks
/// between stages, freeing memory), so the stages and "other" add up to the total. A stage
/// on another thread is shown beside the one it overlaps and left out of that sum.
class StageTimes {
 public:
  void add(std::string stage, double ms) { stages_.push_back({std::move(stage), ms, ""}); }
  void add_beside(std::string stage, double ms, std::string overlapped) {
    stages_.push_back({std::move(stage), ms, std::move(overlapped)});
  }

  /// "gpufilter: timing (cpu): start 1.2 ms, decode 3.4 ms, ..., other 0.1 ms, total 9.0 ms",
  /// with three decimals; a stage on another thread reads "cuda start 120.5 ms (beside decode)".
  std::string summary(const std::string& device, double total_ms) const {
    std::string text = "gpufilter: timing (" + device + "):";
    const char* separator = " ";
    double main_thread_ms = 0.0;
    for (const Stage& stage : stages_) {
      text += separator + stage.name + " " + milliseconds(stage.ms);
      if (stage.beside.empty()) {
        main_thread_ms += stage.ms;
      } else {
        text += " (beside " + stage.beside + ")";
      }
      separator = ", ";
    }
    const double other_ms = total_ms > main_thread_ms ? total_ms - main_thread_ms : 0.0;
    return text + separator + "other " + milliseconds(other_ms) + ", total " + milliseconds(total_ms);
  }

  /// Calls visit(name, ms) for each stage in order.
  template <class Visit>
  void each(Visit visit) const {
    for (const Stage& stage : stages_) visit(stage.name, stage.ms);
  }

 private:
  struct Stage {
    std::string name;
    double ms = 0.0;
    std::string beside;  ///< the main-thread stage it overlaps; empty for one on the main thread
  };

  static std::string milliseconds(double ms) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f ms", ms);
    return buffer;
  }
  std::vector<Stage> stages_;
};

/// A batch's stage times summed over its files, for --timing: the files run side by side
/// on several threads, so the sums exceed the wall time; they show where the threads'
/// time goes. Thread-safe.
class StageTotals {
 public:
  void add(const StageTimes& times) {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++files_;
    times.each([this](const std::string& name, double ms) {
      if (totals_.find(name) == totals_.end()) order_.push_back(name);
      totals_[name] += ms;
    });
  }

  /// "gpufilter: timing (batch of 120 files, 16 threads, 2.9 s): per file, summed over
  /// threads: read 3.1 ms, gpu decode 9.2 ms, ..."
  std::string summary(std::size_t threads, double wall_ms) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    char head[160];
    std::snprintf(head, sizeof head, "gpufilter: timing (batch of %zu files, %zu threads, %.3f s): mean per file:",
                  files_, threads, wall_ms / 1e3);
    std::string text = head;
    const char* separator = " ";
    for (const std::string& name : order_) {
      char stage[96];
      std::snprintf(stage, sizeof stage, "%s%s %.3f ms", separator, name.c_str(),
                    files_ ? totals_.at(name) / static_cast<double>(files_) : 0.0);
      text += stage;
      separator = ", ";
    }
    return text;
  }

 private:
  mutable std::mutex mutex_;
  std::size_t files_ = 0;
  std::vector<std::string> order_;
  std::map<std::string, double> totals_;
};

}  // namespace gpufilter::io
