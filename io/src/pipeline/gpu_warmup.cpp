#include "gpufilter/io/gpu_warmup.hpp"

#include <cuda_runtime_api.h>

#include <system_error>

#include "gpufilter/io/gpu_jpeg.hpp"
#include "gpufilter/device.hpp"
#include "gpufilter/error.hpp"
#include "files/signal_cleanup.hpp"
#include "gpufilter/io/timing.hpp"

namespace gpufilter::io {

GpuWarmup::GpuWarmup(int device, bool prepare_jpeg) : state_(std::make_shared<State>()) {
  state_->device = device;
  state_->prepare_jpeg = prepare_jpeg;
  // The new thread inherits this mask: SIGINT and the like stay with the main thread,
  // which blocks them around creating the output file so none is left behind.
  const CleanupSignalsBlocked blocked;
  try {
    thread_ = std::thread([state = state_] { start_cuda(*state); });
  } catch (const std::system_error&) {
    // No thread to be had: wait() starts CUDA on the main thread, as before.
  }
}

GpuWarmup::~GpuWarmup() {
  if (thread_.joinable()) thread_.detach();
}

void GpuWarmup::wait() {
  const Stopwatch waiting;
  if (thread_.joinable()) {
    thread_.join();
  } else if (!state_->done) {
    start_cuda(*state_);
  }
  waited_ms_ = waiting.elapsed_ms();
  if (state_->failure) std::rethrow_exception(state_->failure);
}

void GpuWarmup::start_cuda(State& state) noexcept {
  const Stopwatch watch;
  try {
    const int count = device_count();
    if (count == 0) {
      state.unusable_reason = no_device_reason();
    } else if (state.device >= count) {
      state.unusable_reason =
          "there is no GPU " + std::to_string(state.device) + "; this machine has " + std::to_string(count);
    } else {
      GPUFILTER_CUDA_CHECK(cudaSetDevice(state.device));
      // Frees nothing, but the runtime creates the device's primary context to run it;
      // the main thread's later calls on the device share that context.
      GPUFILTER_CUDA_CHECK(cudaFree(nullptr));
      if (state.prepare_jpeg) prepare_gpu_jpeg(state.device);
    }
  } catch (...) {
    state.failure = std::current_exception();
  }
  state.took_ms = watch.elapsed_ms();
  state.done = true;
}

}  // namespace gpufilter::io
