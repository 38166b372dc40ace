#pragma once
// Hands out slots of a __constant__ mask array. A slot already holding the same
// weights is reused without an upload; otherwise the least recently handed out slot
// is refilled, after the host waits for the last kernel that read it (normally long
// finished). The upload comes from pinned memory, so it never blocks the stream.
#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace gpufilter::kernels {

class MaskSlots {
 public:
  // upload(slot, host_weights, count, stream) copies into the __constant__ slot.
  using Upload = std::function<void(int slot, const float* weights, int count, cudaStream_t stream)>;

  MaskSlots(int slots, int max_taps, Upload upload) : slots_(slots), max_taps_(max_taps), upload_(std::move(upload)) {}

  // Runs launch(slot) with the weights in that slot, on `stream`, for the current device.
  void with_slot(const std::vector<float>& weights, cudaStream_t stream, const std::function<void(int slot)>& launch);

 private:
  int slots_;
  int max_taps_;
  Upload upload_;
};

}  // namespace gpufilter::kernels
