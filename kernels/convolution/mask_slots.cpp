#include "convolution/mask_slots.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "gpufilter/error.hpp"

namespace gpufilter::kernels {
// Named, not anonymous: MaskSlots::State, a member of a class with linkage, holds them.
namespace slot_state {

// Uses listed per slot before the finished ones are pruned: enough for the streams
// a program keeps busy at once, small enough that short-lived streams do not pile up.
constexpr std::size_t kUsesBeforePruning = 8;

// The last kernel that read a slot on one stream.
struct Use {
  cudaStream_t stream;
  cudaEvent_t done;
};

struct Slot {
  std::vector<float> weights;       // empty: never filled, or its upload failed
  cudaEvent_t uploaded = nullptr;   // recorded on the uploading stream after the copy
  std::vector<Use> uses;            // since the upload, at most one per stream
  unsigned long long stamp = 0;     // when the slot was last handed out
};

// The host-side state of one device's slots. Events are pooled, never created per call.
struct DeviceSlots {
  std::vector<Slot> slots;
  std::vector<cudaEvent_t> pool;
  unsigned long long clock = 0;
  int created = 0;

  DeviceSlots() = default;
  DeviceSlots(const DeviceSlots&) = delete;
  DeviceSlots& operator=(const DeviceSlots&) = delete;
  ~DeviceSlots() {
    // At process exit the runtime may already be gone; nothing is left to release then.
    for (Slot& slot : slots) {
      if (slot.uploaded != nullptr) cudaEventDestroy(slot.uploaded);
      for (const Use& use : slot.uses) cudaEventDestroy(use.done);
    }
    for (cudaEvent_t event : pool) cudaEventDestroy(event);
  }

  cudaEvent_t take_event() {
    if (!pool.empty()) {
      cudaEvent_t event = pool.back();
      pool.pop_back();
      return event;
    }
    cudaEvent_t event = nullptr;
    GPUFILTER_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    ++created;
    return event;
  }

  // A recorded event may be recorded again at once: a stream that already waits on it
  // waits for the recording it saw, not for later ones.
  void give_back(cudaEvent_t event) { pool.push_back(event); }

  // Drops the uses that have finished: nothing needs to wait for them any more.
  void prune_finished(Slot& slot) {
    auto finished = [&](const Use& use) {
      const cudaError_t status = cudaEventQuery(use.done);
      if (status == cudaErrorNotReady) return false;
      GPUFILTER_CUDA_CHECK(status);
      give_back(use.done);
      return true;
    };
    slot.uses.erase(std::remove_if(slot.uses.begin(), slot.uses.end(), finished), slot.uses.end());
  }
};

int current_device() {
  int device = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

}  // namespace slot_state

struct MaskSlots::State {
  std::mutex mutex;
  std::map<int, slot_state::DeviceSlots> devices;  // by CUDA device ordinal

  slot_state::DeviceSlots& for_device(int device, int slots) {
    slot_state::DeviceSlots& state = devices[device];
    if (state.slots.empty()) state.slots.resize(static_cast<std::size_t>(slots));
    return state;
  }
};

MaskSlots::MaskSlots(int slots, int max_taps, Upload upload)
    : slots_(slots), max_taps_(max_taps), upload_(std::move(upload)), state_(std::make_unique<State>()) {}

MaskSlots::~MaskSlots() = default;

void MaskSlots::with_slot(const std::vector<float>& weights, cudaStream_t stream,
                          const std::function<void(int)>& launch) {
  const int taps = static_cast<int>(weights.size());
  if (taps <= 0 || taps > max_taps_)
    throw Error(ErrorCode::InvalidArgument, "mask of " + std::to_string(taps) + " taps; at most " +
                                                std::to_string(max_taps_) + " are supported");
  const int device = slot_state::current_device();
  std::lock_guard<std::mutex> lock(state_->mutex);
  slot_state::DeviceSlots& state = state_->for_device(device, slots_);

  auto held = std::find_if(state.slots.begin(), state.slots.end(),
                           [&](const slot_state::Slot& s) { return s.weights == weights; });
  if (held == state.slots.end()) {
    held = std::min_element(state.slots.begin(), state.slots.end(),
                            [](const slot_state::Slot& a, const slot_state::Slot& b) { return a.stamp < b.stamp; });
    slot_state::Slot& slot = *held;
    // The new weights may land only after every kernel that reads the old ones, and
    // after the slot's previous upload, whichever streams those ran on.
    for (const slot_state::Use& use : slot.uses) {
      GPUFILTER_CUDA_CHECK(cudaStreamWaitEvent(stream, use.done, 0));
      state.give_back(use.done);
    }
    slot.uses.clear();
    if (slot.uploaded != nullptr) GPUFILTER_CUDA_CHECK(cudaStreamWaitEvent(stream, slot.uploaded, 0));
    else slot.uploaded = state.take_event();
    slot.weights.clear();  // until the upload is enqueued, the slot holds nothing usable
    upload_(static_cast<int>(held - state.slots.begin()), weights.data(), taps, stream);
    GPUFILTER_CUDA_CHECK(cudaEventRecord(slot.uploaded, stream));
    slot.weights = weights;
  }
  slot_state::Slot& slot = *held;
  slot.stamp = ++state.clock;
  // The upload may still be queued on another stream (behind whatever that stream waits
  // for); this stream must not read the slot before it lands.
  GPUFILTER_CUDA_CHECK(cudaStreamWaitEvent(stream, slot.uploaded, 0));
  launch(static_cast<int>(held - state.slots.begin()));

  auto use = std::find_if(slot.uses.begin(), slot.uses.end(),
                          [&](const slot_state::Use& u) { return u.stream == stream; });
  if (use == slot.uses.end()) {
    if (slot.uses.size() >= slot_state::kUsesBeforePruning) state.prune_finished(slot);
    slot.uses.push_back({stream, state.take_event()});
    use = slot.uses.end() - 1;
  }
  GPUFILTER_CUDA_CHECK(cudaEventRecord(use->done, stream));
}

int MaskSlots::live_events() const {
  const int device = slot_state::current_device();
  std::lock_guard<std::mutex> lock(state_->mutex);
  const auto it = state_->devices.find(device);
  return it == state_->devices.end() ? 0 : it->second.created;
}

}  // namespace gpufilter::kernels
