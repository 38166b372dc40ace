#pragma once
/// @file
/// Starting CUDA on a second thread while the main thread decodes the input: finding the
/// driver and the devices, then making the context (and, under CUDA_MODULE_LOADING=EAGER,
/// loading every kernel) takes a few hundred milliseconds, about as long as decoding a
/// photo, so the two overlap instead of adding up.
#include <exception>
#include <memory>
#include <string>
#include <thread>

namespace gpufilter::io {

class GpuWarmup {
 public:
  /// Starts the thread making `device`'s context (and with `prepare_jpeg`, nvJPEG's
  /// handles for a JPEG input). Construct only when the GPU may be used: the CPU path
  /// makes no CUDA call.
  explicit GpuWarmup(int device = 0, bool prepare_jpeg = false);
  /// A run that fails before wait() (a bad argument or input file) does not wait for CUDA:
  /// the thread is left to finish on its own while the process reports and exits.
  ~GpuWarmup();
  GpuWarmup(const GpuWarmup&) = delete;
  GpuWarmup& operator=(const GpuWarmup&) = delete;

  /// Returns once the context exists or CUDA is known to be unusable (see usable());
  /// throws the gpufilter::Error that making the context raised, as the first CUDA call on
  /// the main thread would have. Call before any CUDA call.
  void wait();
  /// After wait(): whether the device can be used, and if not, why (no driver, no device,
  /// no such device number).
  bool usable() const { return state_->unusable_reason.empty(); }
  const std::string& unusable_reason() const { return state_->unusable_reason; }
  /// How long starting CUDA took on its thread, and how long wait() blocked for it
  /// (about 0 when decoding took longer). Valid after wait().
  double took_ms() const { return state_->took_ms; }
  double waited_ms() const { return waited_ms_; }
  int device() const { return state_->device; }

 private:
  /// Shared with the thread, which may outlive this object.
  struct State {
    int device = 0;
    bool prepare_jpeg = false;
    bool done = false;
    std::exception_ptr failure;
    std::string unusable_reason;
    double took_ms = 0.0;
  };
  static void start_cuda(State& state) noexcept;

  std::shared_ptr<State> state_;
  std::thread thread_;
  double waited_ms_ = 0.0;
};

}  // namespace gpufilter::io
