#include "gpu_warmup.hpp"

#include <cuda_runtime_api.h>

#include <system_error>

#include "gpufilter/device.hpp"
#include "gpufilter/error.hpp"
#include "signal_cleanup.hpp"
#include "timing.hpp"

namespace gpufilter::cli {

GpuWarmup::GpuWarmup(int device) : device_(device) {
  // The new thread inherits this mask: SIGINT and the like stay with the main thread,
  // which blocks them around creating the output file so none is left behind.
  const CleanupSignalsBlocked blocked;
  try {
    thread_ = std::thread([this] { make_context(); });
  } catch (const std::system_error&) {
    // No thread to be had: wait() makes the context on the main thread, as before.
  }
}

GpuWarmup::~GpuWarmup() {
  if (thread_.joinable()) thread_.join();
}

void GpuWarmup::wait() {
  const Stopwatch waiting;
  if (thread_.joinable()) {
    thread_.join();
  } else if (!done_) {
    make_context();
  }
  waited_ms_ = waiting.elapsed_ms();
  if (failure_) std::rethrow_exception(failure_);
}

void GpuWarmup::make_context() noexcept {
  const Stopwatch watch;
  try {
    const int count = device_count();
    if (count == 0) {
      unusable_reason_ = no_device_reason();
    } else if (device_ >= count) {
      unusable_reason_ = "there is no GPU " + std::to_string(device_) + "; this machine has " + std::to_string(count);
    }
    if (!unusable_reason_.empty()) {
      took_ms_ = watch.elapsed_ms();
      done_ = true;
      return;
    }
    GPUFILTER_CUDA_CHECK(cudaSetDevice(device_));
    // Frees nothing, but the runtime creates the device's primary context to run it; the
    // main thread's later calls on device 0 share that context.
    GPUFILTER_CUDA_CHECK(cudaFree(nullptr));
  } catch (...) {
    failure_ = std::current_exception();
  }
  took_ms_ = watch.elapsed_ms();
  done_ = true;
}

}  // namespace gpufilter::cli
