#pragma once
// Stage times for --timing: wall-clock for host stages, CUDA events for device ones.
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace gpufilter::cli {

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

// The main thread's stages follow one another; "other" is the rest of the total (checks
// between stages, freeing memory), so the stages and "other" add up to the total. A stage
// on another thread is shown beside the one it overlaps and left out of that sum.
class StageTimes {
 public:
  void add(std::string stage, double ms) { stages_.push_back({std::move(stage), ms, ""}); }
  void add_beside(std::string stage, double ms, std::string overlapped) {
    stages_.push_back({std::move(stage), ms, std::move(overlapped)});
  }

  // "gpufilter: timing (cpu): start 1.2 ms, decode 3.4 ms, ..., other 0.1 ms, total 9.0 ms",
  // with three decimals; a stage on another thread reads "cuda start 120.5 ms (beside decode)".
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

 private:
  struct Stage {
    std::string name;
    double ms = 0.0;
    std::string beside;  // the main-thread stage it overlaps; empty for one on the main thread
  };

  static std::string milliseconds(double ms) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f ms", ms);
    return buffer;
  }
  std::vector<Stage> stages_;
};

}  // namespace gpufilter::cli
