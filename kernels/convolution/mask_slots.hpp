#pragma once
// Hands out slots of a __constant__ mask array, ordering everything on the GPU so
// the host never waits:
// - a call whose weights already sit in a slot reuses it, but its stream first waits
//   for that slot's upload (which may still be queued behind work on another stream);
// - otherwise the least recently handed out slot is refilled: the uploading stream
//   first waits for every earlier kernel that read the slot, on whatever stream.
// The upload copies from pageable host memory, which the runtime stages at once, so no
// host buffer has to outlive the call.
#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <vector>

namespace gpufilter::kernels {

class MaskSlots {
 public:
  // upload(slot, host_weights, count, stream) enqueues the copy into the __constant__ slot.
  using Upload = std::function<void(int slot, const float* weights, int count, cudaStream_t stream)>;

  MaskSlots(int slots, int max_taps, Upload upload);
  // Releases the events; call it while the CUDA runtime is still up (a function-local
  // static made on first use is destroyed before the runtime's own teardown).
  ~MaskSlots();
  MaskSlots(const MaskSlots&) = delete;
  MaskSlots& operator=(const MaskSlots&) = delete;

  // Runs launch(slot) with the weights in that slot, on `stream`, for the current device.
  void with_slot(const std::vector<float>& weights, cudaStream_t stream, const std::function<void(int slot)>& launch);

  // For tests: the CUDA events this object holds now on the current device (bounded by
  // slots x streams in recent use, never by the number of calls).
  int live_events() const;

 private:
  struct State;
  int slots_;
  int max_taps_;
  Upload upload_;
  std::unique_ptr<State> state_;
};

}  // namespace gpufilter::kernels
