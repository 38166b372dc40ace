#pragma once
/// @file
/// Streams and the execution context every op takes.
/// The public headers need no CUDA headers: a stream is the runtime's opaque handle,
/// declared here under its own name. A StreamHandle (and a CUstream from the driver
/// API, a CuPy or PyTorch stream's handle) is this same pointer type.
struct CUstream_st;

namespace gpufilter {

/// The CUDA runtime's cudaStream_t, without the CUDA headers (nullptr: the default stream).
using StreamHandle = CUstream_st*;

/// Owns a non-blocking CUDA stream; move-only.
class Stream {
 public:
  /// cudaStreamCreateWithFlags; throws Error(Cuda), or Error(NoDevice) when no GPU is
  /// usable. Does not synchronize.
  Stream();
  /// cudaStreamDestroy, errors ignored; returns without waiting for the stream's work
  /// (the runtime releases the stream once that work is done).
  ~Stream();
  /// Does not throw; assignment destroys the stream held before, as the destructor does.
  Stream(Stream&& other) noexcept;
  /// Does not throw; destroys the stream held before, as the destructor does.
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  /// The stream's handle, for ExecContext::stream or any CUDA call.
  StreamHandle get() const noexcept { return stream_; }
  /// Synchronizes: blocks the calling thread until all work enqueued on the stream has
  /// finished. Throws Error(Cuda) (or OutOfMemory, NoDevice, as check_cuda maps it) when
  /// that work failed, which is how an asynchronous kernel failure is reported.
  void synchronize() const;

 private:
  StreamHandle stream_ = nullptr;
};

/// Where and how an op runs: the stream it enqueues on, and whether it waits after each launch.
struct ExecContext {
  /// Ops enqueue their work here and return without waiting for it.
  StreamHandle stream = nullptr;
  /// Synchronize after every launch so a failing kernel is reported by the call that
  /// launched it. Defaults to on when the environment sets GPUFILTER_SYNC_LAUNCHES=1.
  bool sync_after_launch = sync_after_launch_default();

  /// Reads GPUFILTER_SYNC_LAUNCHES once, on the first call; does not throw.
  static bool sync_after_launch_default();
};

}  // namespace gpufilter
