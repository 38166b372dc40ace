#include "gpu_pool.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "gpufilter/io/resident_gpus.hpp"

namespace gpufilter::io {

GpuPool::GpuPool(const std::vector<int>& devices, int workspaces_per_device,
                 std::optional<JpegBatchTuning> batch_jpeg)
    : devices_(devices), busy_per_device_(devices.size(), 0), runs_per_device_(devices.size(), 0) {
  if (batch_jpeg && batch_jpeg->max_batch > 0)
    for (const int device : devices)
      decoders_.push_back(std::make_unique<JpegBatchDecoder>(
          [device] {
            // A server's engines outlive the batch (made at its start, lent to each).
            ResidentGpus* resident = ResidentGpus::active();
            return resident != nullptr ? resident->lend_jpeg_engine(device) : make_hardware_jpeg_engine(device);
          },
          *batch_jpeg, "GPU " + std::to_string(device)));
  // Interleaved (0, 1, 0, 1, ...) so that ties go round the GPUs.
  for (int round = 0; round < workspaces_per_device; ++round)
    for (std::size_t d = 0; d < devices.size(); ++d) {
      auto slot = std::make_unique<Slot>();
      slot->device = devices[d];
      slot->device_index = d;
      slots_.push_back(std::move(slot));
    }
}

GpuWorkspace& GpuPool::Lease::workspace() const {
  Slot& slot = *pool_.slots_[slot_];
  JpegBatchDecoder* decoder =
      pool_.decoders_.empty() ? nullptr : pool_.decoders_[slot.device_index].get();
  std::call_once(slot.created, [&slot, decoder] {
    ResidentGpus* resident = ResidentGpus::active();
    slot.workspace = resident != nullptr ? resident->take_workspace(slot.device, decoder)
                                         : std::make_unique<GpuWorkspace>(slot.device, decoder);
  });
  return *slot.workspace;
}

GpuPool::~GpuPool() {
  // A server keeps the workspaces (streams, nvJPEG states) for its next batch; they are
  // given back before this pool's decoders, which they point at, are destroyed.
  ResidentGpus* resident = ResidentGpus::active();
  if (resident == nullptr) return;
  for (const auto& slot : slots_) resident->give_back_workspace(std::move(slot->workspace));
}

GpuPool::Lease GpuPool::borrow() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    std::size_t best = slots_.size();
    int best_busy = std::numeric_limits<int>::max();
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const Slot& slot = *slots_[i];
      if (slot.busy) continue;
      const int busy = busy_per_device_[slot.device_index];
      if (busy < best_busy) {
        best = i;
        best_busy = busy;
      }
    }
    if (best < slots_.size()) {
      Slot& slot = *slots_[best];
      slot.busy = true;
      ++busy_per_device_[slot.device_index];
      ++runs_per_device_[slot.device_index];
      return Lease(*this, best);
    }
    freed_.wait(lock);
  }
}

void GpuPool::give_back(std::size_t index) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    Slot& slot = *slots_[index];
    slot.busy = false;
    --busy_per_device_[slot.device_index];
  }
  freed_.notify_one();
}

std::vector<long> GpuPool::runs_per_device() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return runs_per_device_;
}

std::vector<std::string> GpuPool::batch_decoding_summaries() const {
  std::vector<std::string> lines;
  for (const auto& decoder : decoders_) lines.push_back(decoder->summary());
  return lines;
}

bool GpuPool::jpeg_engines_starting() const {
  for (const auto& decoder : decoders_)
    if (decoder->starting()) return true;
  return false;
}

long GpuPool::jpeg_engine_files() const {
  long files = 0;
  for (const auto& decoder : decoders_) files += decoder->decoded_files();
  return files;
}

std::optional<JpegBatchDecoder::Clock::time_point> GpuPool::jpeg_engines_ready_at() const {
  if (decoders_.empty() || jpeg_engines_starting()) return std::nullopt;
  JpegBatchDecoder::Clock::time_point last = decoders_.front()->ready_at();
  for (const auto& decoder : decoders_) last = std::max(last, decoder->ready_at());
  return last;
}

void PooledGpuRunner::run_image(const RunRequest& request, const ImageView& src, const ImageView& dst,
                                StageTimes& times) {
  const GpuPool::Lease lease = pool_.borrow();
  lease.workspace().run_image(request, src, dst, times);
}

void PooledGpuRunner::run_data(const RunRequest& request, const ImageView& src, std::vector<double>& result,
                               StageTimes& times) {
  const GpuPool::Lease lease = pool_.borrow();
  lease.workspace().run_data(request, src, result, times);
}

bool PooledGpuRunner::run_jpeg(const RunRequest& request, const GpuJpegInput& input, const GpuJpegOutput& output,
                               StageTimes& times) {
  const GpuPool::Lease lease = pool_.borrow();
  return lease.workspace().run_jpeg(request, input, output, times);
}

bool PooledGpuRunner::run_image_to_jpeg(const RunRequest& request, const ImageView& src, int quality,
                                        std::vector<unsigned char>& encoded, StageTimes& times) {
  const GpuPool::Lease lease = pool_.borrow();
  return lease.workspace().run_image_to_jpeg(request, src, quality, encoded, times);
}

}  // namespace gpufilter::io
