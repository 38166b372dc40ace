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

// A pool slot as a run choosing its workspace sees it.
struct SlotState {
  bool free = false;
  bool engine_started = true;  // its GPU's hardware engine is ready or absent, or it has none
  int device_busy = 0;         // runs in flight on its GPU
};
// The slot a run takes: a free one on the GPU with the fewest runs in flight, the first
// such (the slots interleave the GPUs); for a JPEG file for the engine (`engine_file`),
// only on a GPU whose engine has started once any has: it then waits for that GPU's next
// free workspace rather than for another engine's start. slots.size() when none fits.
std::size_t choose_slot(const std::vector<SlotState>& slots, bool engine_file);

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
  // What a run needs its workspace for: a JPEG file for the GPU's hardware engine, or
  // anything else (an image decoded on the CPU goes to any GPU).
  enum class Work { Any, JpegEngine };
  // Waits for a free workspace, preferring the GPU with the fewest runs in flight; a JPEG
  // file goes to a GPU whose engine has started once any has (choose_slot()), so that a
  // GPU ready before the others takes files at once rather than them waiting for the last.
  Lease borrow(Work work = Work::Any);
  // Whether a GPU whose engine has started has a free workspace now (a file taken for
  // the engine would not wait for a start).
  bool started_engine_has_room() const;

  // Files run on each device so far, in the order of `devices`.
  std::vector<long> runs_per_device() const;
  // One line per GPU on its batched JPEG decoding (none without), for --timing.
  std::vector<std::string> batch_decoding_summaries() const;
  // Whether any GPU's hardware JPEG engine is still being made.
  bool jpeg_engines_starting() const;
  // GPUs whose hardware JPEG engine is still being made.
  std::size_t jpeg_engines_starting_count() const;
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
  // Per device (in the order of devices_): its engine is ready or absent, or it has none.
  std::vector<bool> engines_started() const;
  // The free slots, as choose_slot() sees them; holds mutex_.
  std::vector<SlotState> slot_states(const std::vector<bool>& started) const;

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
