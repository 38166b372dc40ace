#pragma once
/// @file
/// The GPU state a `gpufilter server` keeps from one request to the next: per device, the
/// warm-up that made its context (and nvJPEG's handle) and one workspace with its stream,
/// device buffers and nvJPEG decoder states. A single file run by the server then starts
/// with all of it ready, where a process of its own would spend most of its wall time
/// making it. Outside a server there is none (active() is null) and runs make their own.
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "gpufilter/io/execute.hpp"
#include "gpufilter/io/gpu_warmup.hpp"
#include "gpufilter/io/jpeg_batch_decoder.hpp"

namespace gpufilter::io {

class ResidentGpus {
 public:
  /// Makes the process's resident state (once; the server calls it before its first
  /// request) and warms every GPU of the machine up, side by side: context, nvJPEG,
  /// workspace, hardware JPEG engine (prepare()). Returns when they are ready.
  static ResidentGpus& activate();
  /// The process's resident state, or null outside a server.
  static ResidentGpus* active();

  /// The warm-up of `device`, started on first use (with nvJPEG's handle where the build
  /// has nvJPEG). Requests are served one at a time: not thread-safe.
  GpuWarmup& warmup(int device);
  /// The device's workspace for single files, made on first use, its JPEG files decoded on
  /// the hardware engine where the device has one; call after warmup(device).wait() said
  /// the device is usable.
  GpuWorkspace& workspace(int device);
  /// Makes the device's workspace and its nvJPEG states now (after its warm-up), so the
  /// first JPEG request does not wait for them. Never throws: a failure shows on first use.
  void prepare(int device) noexcept;
  /// A batch's workspace on `device`, bound to `batch_decoder`: one a previous batch gave
  /// back (its stream and nvJPEG states made), else a new one. Thread-safe.
  std::unique_ptr<GpuWorkspace> take_workspace(int device, JpegBatchDecoder* batch_decoder);
  /// A batch's workspace back, its device images freed, for the next batch. Thread-safe.
  void give_back_workspace(std::unique_ptr<GpuWorkspace> workspace);
  /// The device's hardware JPEG engine (jpeg_batch_decoder.hpp), made on first use and
  /// kept: the engine handed out forwards to it, for one batch at a time. nullptr where
  /// the device has none. Thread-safe (a batch's decoder thread asks).
  std::unique_ptr<JpegBatchEngine> lend_jpeg_engine(int device);
  /// Whether every warmed-up device still works: false after an error that leaves a CUDA
  /// context unusable, when the server must end rather than fail every later request.
  bool healthy();

 private:
  struct Device {
    std::unique_ptr<GpuWarmup> warmup;
    std::unique_ptr<JpegBatchDecoder> single_file_decoder;  ///< the workspace's; outlives it
    std::unique_ptr<GpuWorkspace> workspace;
  };
  std::map<int, Device> devices_;
  std::mutex engines_mutex_;
  std::map<int, std::unique_ptr<JpegBatchEngine>> engines_;  ///< nullptr: the device has none
  std::mutex spares_mutex_;
  std::map<int, std::vector<std::unique_ptr<GpuWorkspace>>> spares_;  ///< batches' workspaces, by device
};

}  // namespace gpufilter::io
