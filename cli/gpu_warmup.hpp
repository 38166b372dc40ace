#pragma once
// Starting CUDA on a second thread while the main thread decodes the input: finding the
// driver and the devices, then making the context (and, under CUDA_MODULE_LOADING=EAGER,
// loading every kernel) takes a few hundred milliseconds, about as long as decoding a
// photo, so the two overlap instead of adding up.
#include <exception>
#include <string>
#include <thread>

namespace gpufilter::cli {

class GpuWarmup {
 public:
  // Starts the thread making `device`'s context. Construct only when the GPU may be
  // used: the CPU path makes no CUDA call.
  explicit GpuWarmup(int device = 0);
  // Joins, so a run that fails before wait() (a bad input file) never leaves the thread
  // running or calls std::terminate; it waits at most for the context.
  ~GpuWarmup();
  GpuWarmup(const GpuWarmup&) = delete;
  GpuWarmup& operator=(const GpuWarmup&) = delete;

  // Returns once the context exists or CUDA is known to be unusable (see usable());
  // throws the gpufilter::Error that making the context raised, as the first CUDA call on
  // the main thread would have. Call before any CUDA call.
  void wait();
  // After wait(): whether the device can be used, and if not, why (no driver, no device,
  // no such device number).
  bool usable() const { return unusable_reason_.empty(); }
  const std::string& unusable_reason() const { return unusable_reason_; }
  // How long making the context took on its thread, and how long wait() blocked for it
  // (about 0 when decoding took longer). Valid after wait().
  double took_ms() const { return took_ms_; }
  double waited_ms() const { return waited_ms_; }
  int device() const { return device_; }

 private:
  void make_context() noexcept;

  int device_;
  std::thread thread_;
  bool done_ = false;
  std::exception_ptr failure_;
  std::string unusable_reason_;
  double took_ms_ = 0.0;
  double waited_ms_ = 0.0;
};

}  // namespace gpufilter::cli
