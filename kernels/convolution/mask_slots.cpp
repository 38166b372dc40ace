#include "convolution/mask_slots.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "gpufilter/error.hpp"

namespace gpufilter::kernels {
namespace {

// The host side of one device's slots.
struct DeviceSlots {
  float* pinned = nullptr;               // slots * max_taps floats, the upload sources
  std::vector<int> count;                // taps held by each slot (0: empty)
  // Per slot, one event per stream that used it, recorded after each such launch:
  // a slot is refilled only once every stream's last use of it has finished.
  std::vector<std::vector<std::pair<cudaStream_t, cudaEvent_t>>> uses;
  std::vector<unsigned long long> stamp; // when each slot was last handed out
  unsigned long long clock = 0;

  ~DeviceSlots() {
    for (auto& slot_uses : uses)
      for (auto& use : slot_uses) cudaEventDestroy(use.second);
    if (pinned != nullptr) cudaFreeHost(pinned);
  }
};

std::mutex g_mutex;

// Created on first use, after the CUDA runtime is up, so it is destroyed (and its
// pinned memory and events released) before the runtime shuts down at exit.
std::map<std::pair<const MaskSlots*, int>, std::unique_ptr<DeviceSlots>>& all_device_slots() {
  static std::map<std::pair<const MaskSlots*, int>, std::unique_ptr<DeviceSlots>> devices;
  return devices;
}

DeviceSlots& slots_for(const MaskSlots* owner, int device, int slots, int max_taps) {
  auto& entry = all_device_slots()[{owner, device}];
  if (!entry) {
    auto state = std::make_unique<DeviceSlots>();
    GPUFILTER_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&state->pinned), sizeof(float) * static_cast<std::size_t>(slots * max_taps)));
    state->count.assign(static_cast<std::size_t>(slots), 0);
    state->stamp.assign(static_cast<std::size_t>(slots), 0);
    state->uses.resize(static_cast<std::size_t>(slots));
    entry = std::move(state);
  }
  return *entry;
}

}  // namespace

void MaskSlots::with_slot(const std::vector<float>& weights, cudaStream_t stream,
                          const std::function<void(int)>& launch) {
  const int taps = static_cast<int>(weights.size());
  if (taps <= 0 || taps > max_taps_)
    throw Error(ErrorCode::InvalidArgument, "mask of " + std::to_string(taps) + " taps; at most " +
                                                std::to_string(max_taps_) + " are supported");
  int device = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  std::lock_guard<std::mutex> lock(g_mutex);
  DeviceSlots& s = slots_for(this, device, slots_, max_taps_);
  const auto slot_data = [&](int i) { return s.pinned + static_cast<std::size_t>(i) * max_taps_; };

  int slot = -1;
  for (int i = 0; i < slots_ && slot < 0; ++i)
    if (s.count[i] == taps && std::memcmp(slot_data(i), weights.data(), sizeof(float) * weights.size()) == 0) slot = i;
  if (slot < 0) {
    slot = static_cast<int>(std::min_element(s.stamp.begin(), s.stamp.end()) - s.stamp.begin());
    // Earlier kernels may still read this slot, and its pinned source may still be in
    // flight: both are done once every stream's last recorded use of it is.
    for (const auto& use : s.uses[static_cast<std::size_t>(slot)]) GPUFILTER_CUDA_CHECK(cudaEventSynchronize(use.second));
    std::memcpy(slot_data(slot), weights.data(), sizeof(float) * weights.size());
    s.count[static_cast<std::size_t>(slot)] = taps;
    upload_(slot, slot_data(slot), taps, stream);
  }
  s.stamp[static_cast<std::size_t>(slot)] = ++s.clock;
  launch(slot);
  auto& uses = s.uses[static_cast<std::size_t>(slot)];
  auto use = std::find_if(uses.begin(), uses.end(), [&](const auto& u) { return u.first == stream; });
  if (use == uses.end()) {
    cudaEvent_t event = nullptr;
    GPUFILTER_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    use = uses.insert(uses.end(), {stream, event});
  }
  GPUFILTER_CUDA_CHECK(cudaEventRecord(use->second, stream));
}

}  // namespace gpufilter::kernels
