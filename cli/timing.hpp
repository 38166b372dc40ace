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
  double elapsed_ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  }
  void restart() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

class StageTimes {
 public:
  void add(std::string stage, double ms) { stages_.emplace_back(std::move(stage), ms); }

  // "gpufilter: timing (cpu): decode 1.234 ms, compute 5.678 ms, ..., total 9.012 ms"
  std::string summary(const std::string& device, double total_ms) const {
    std::string text = "gpufilter: timing (" + device + "):";
    const char* separator = " ";
    for (const auto& [stage, ms] : stages_) {
      text += separator + stage + " " + milliseconds(ms);
      separator = ", ";
    }
    return text + separator + "total " + milliseconds(total_ms);
  }

 private:
  static std::string milliseconds(double ms) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3f ms", ms);
    return buffer;
  }
  std::vector<std::pair<std::string, double>> stages_;
};

}  // namespace gpufilter::cli
