#pragma once
// Streams and the execution context every op takes.
#include <cuda_runtime_api.h>

namespace gpufilter {

// Owns a non-blocking CUDA stream; move-only.
class Stream {
 public:
  Stream();
  ~Stream();
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const noexcept { return stream_; }
  void synchronize() const;

 private:
  cudaStream_t stream_ = nullptr;
};

struct ExecContext {
  // Ops enqueue their work here and return without waiting for it.
  cudaStream_t stream = nullptr;
  // Synchronize after every launch so a failing kernel is reported by the call that
  // launched it. Defaults to on when the environment sets GPUFILTER_SYNC_LAUNCHES=1.
  bool sync_after_launch = sync_after_launch_default();

  static bool sync_after_launch_default();
};

}  // namespace gpufilter
