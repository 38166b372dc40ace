#pragma once
// The GPUs a batch runs on: a few workspaces (stream + device buffers) per GPU, lent to
// whichever thread has a decoded image, so uploads, kernels and downloads of different
// files overlap on each GPU and spread over all of them.
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gpufilter/io/execute.hpp"
#include "gpufilter/io/jpeg_batch_decoder.hpp"

namespace gpufilter::io {

class GpuPool {
 public:
  // `workspaces_per_device` workspaces on each of `devices`; each is created (and its
  // device's context with it) by the first thread that needs it, beside other decodes.
  // With `batch_jpeg`, each GPU's hardware JPEG decoder starts now, on a thread of its
  // own, and that GPU's workspaces send their JPEG files to it.
  GpuPool(const std::vector<int>& devices, int workspaces_per_device,
          std::optional<JpegBatchTuning> batch_jpeg = std::nullopt);
  ~GpuPool();
  GpuPool(const GpuPool&) = delete;
  GpuPool& operator=(const GpuPool&) = delete;

  // Borrowed for one run; returned by the lease's destructor.
  class Lease {
   public:
    Lease(GpuPool& pool, std::size_t slot) : pool_(pool), slot_(slot) {}
    ~Lease() { pool_.give_back(slot_); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    GpuWorkspace& workspace() const;

   private:
    GpuPool& pool_;
    std::size_t slot_;
  };
  // Waits for a free workspace, preferring the GPU with the fewest runs in flight.
  Lease borrow();

  // Files run on each device so far, in the order of `devices`.
  std::vector<long> runs_per_device() const;
  // One line per GPU on its batched JPEG decoding (none without), for --timing.
  std::vector<std::string> batch_decoding_summaries() const;
  // Whether any GPU's hardware JPEG engine is still being made.
  bool jpeg_engines_starting() const;
  // Files the hardware JPEG engines decoded, all GPUs together.
  long jpeg_engine_files() const;
  // When the last GPU's engine became ready; nullopt without batched decoding or while
  // one is starting.
  std::optional<JpegBatchDecoder::Clock::time_point> jpeg_engines_ready_at() const;

 private:
  struct Slot {
    int device = 0;
    std::size_t device_index = 0;
    bool busy = false;
    std::unique_ptr<GpuWorkspace> workspace;
    std::once_flag created;
  };
  void give_back(std::size_t slot);

  std::vector<int> devices_;
  std::vector<std::unique_ptr<JpegBatchDecoder>> decoders_;  // per device, or empty; outlives the workspaces
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<int> busy_per_device_;
  std::vector<long> runs_per_device_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
};

// A Runner over the pool: each run borrows a workspace for its upload, op and download.
class PooledGpuRunner final : public Runner {
 public:
  explicit PooledGpuRunner(GpuPool& pool) : pool_(pool) {}
  void run_image(const RunRequest& request, const ImageView& src, const ImageView& dst, StageTimes& times) override;
  void run_data(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                StageTimes& times) override;
  bool takes_gpu_jpeg(StageTimes& /*times*/, const char* /*overlapped*/) override { return gpu_jpeg_built(); }
  // Each workspace keeps its own nvJPEG states, so files decode side by side on the pool.
  bool run_jpeg(const RunRequest& request, const GpuJpegInput& input, const GpuJpegOutput& output,
                StageTimes& times) override;
  bool run_image_to_jpeg(const RunRequest& request, const ImageView& src, int quality,
                         std::vector<unsigned char>& encoded, StageTimes& times) override;

 private:
  GpuPool& pool_;
};

}  // namespace gpufilter::io
