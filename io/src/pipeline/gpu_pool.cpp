#include "pipeline/gpu_pool.hpp"

#include <algorithm>
#include <chrono>
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

std::size_t choose_slot(const std::vector<SlotState>& slots, bool engine_file) {
  bool any_started = false;
  if (engine_file)
    for (const SlotState& slot : slots) any_started = any_started || slot.engine_started;
  std::size_t best = slots.size();
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const SlotState& slot = slots[i];
    if (!slot.free || (any_started && !slot.engine_started)) continue;
    if (best == slots.size() || slot.device_busy < slots[best].device_busy) best = i;
  }
  return best;
}

std::vector<bool> GpuPool::engines_started() const {
  std::vector<bool> started(devices_.size(), true);
  for (std::size_t d = 0; d < decoders_.size(); ++d) started[d] = !decoders_[d]->starting();
  return started;
}

std::vector<SlotState> GpuPool::slot_states(const std::vector<bool>& started) const {
  std::vector<SlotState> states(slots_.size());
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Slot& slot = *slots_[i];
    states[i].free = !slot.busy;
    states[i].engine_started = started[slot.device_index];
    states[i].device_busy = busy_per_device_[slot.device_index];
  }
  return states;
}

GpuPool::Lease GpuPool::borrow(Work work) {
  const bool engine_file = work == Work::JpegEngine && !decoders_.empty();
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    // Asked again on every try: an engine may have become ready while this run waited.
    const std::vector<bool> started = engine_file ? engines_started() : std::vector<bool>(devices_.size(), true);
    const std::size_t best = choose_slot(slot_states(started), engine_file);
    if (best < slots_.size()) {
      Slot& slot = *slots_[best];
      slot.busy = true;
      ++busy_per_device_[slot.device_index];
      ++runs_per_device_[slot.device_index];
      return Lease(*this, best);
    }
    // An engine's start frees no workspace: while one starts, a JPEG file looks again
    // now and then.
    if (engine_file && std::find(started.begin(), started.end(), false) != started.end())
      freed_.wait_for(lock, std::chrono::milliseconds(2));
    else
      freed_.wait(lock);
  }
}

bool GpuPool::started_engine_has_room() const {
  const std::vector<bool> started = engines_started();
  const std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& slot : slots_)
    if (!slot->busy && started[slot->device_index]) return true;
  return false;
}

void GpuPool::give_back(std::size_t index) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    Slot& slot = *slots_[index];
    slot.busy = false;
    --busy_per_device_[slot.device_index];
  }
  // While an engine starts, not every waiter can take every workspace (a JPEG file waits
  // for a started engine's): all of them look, so the one that can is not left asleep.
  if (jpeg_engines_starting())
    freed_.notify_all();
  else
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

bool GpuPool::jpeg_engines_starting() const { return jpeg_engines_starting_count() > 0; }

std::size_t GpuPool::jpeg_engines_starting_count() const {
  std::size_t starting = 0;
  for (const auto& decoder : decoders_)
    if (decoder->starting()) ++starting;
  return starting;
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
  const GpuPool::Lease lease = pool_.borrow(GpuPool::Work::JpegEngine);
  return lease.workspace().run_jpeg(request, input, output, times);
}

bool PooledGpuRunner::run_image_to_jpeg(const RunRequest& request, const ImageView& src, int quality,
                                        std::vector<unsigned char>& encoded, StageTimes& times) {
  const GpuPool::Lease lease = pool_.borrow();
  return lease.workspace().run_image_to_jpeg(request, src, quality, encoded, times);
}

}  // namespace gpufilter::io
