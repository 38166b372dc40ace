#pragma once
// GPU timing: CUDA events around each launch, the L2 emptied before each one, the
// median over many launches. Event times are GPU clock times, free of host jitter.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace bench {

// Evicts the L2 between timed launches by writing a scratch buffer of at least twice
// its size, so a timed launch reads its input from DRAM, as it would in a pipeline
// whose images do not fit in L2.
class L2Flusher {
 public:
  L2Flusher();  // sized from the current device's cudaDevAttrL2CacheSize
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;

  void flush(cudaStream_t stream);
  std::size_t bytes() const { return bytes_; }

 private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  int value_ = 0;
};

class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  // Enqueues start event, launch(), stop event on `stream`, waits for the stop event
  // and returns the GPU time between the two events in milliseconds.
  double time_ms(cudaStream_t stream, const std::function<void()>& launch);

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// One timed sample: flush L2 (untimed), then time one launch. The flush is enqueued
// first and runs for tens of microseconds, so the host has enqueued the launch long
// before the GPU reaches the start event: launch latency stays out of the sample.
double timed_launch_ms(cudaStream_t stream, const std::function<void()>& launch, L2Flusher& flusher,
                       EventTimer& timer);

// `warmup` untimed launches, then `iterations` timed samples (milliseconds).
std::vector<double> time_launches(cudaStream_t stream, const std::function<void()>& launch, int warmup,
                                  int iterations, L2Flusher& flusher, EventTimer& timer);

void warm_up(cudaStream_t stream, const std::function<void()>& launch, int count);

double median(std::vector<double> values);  // 0 for an empty list

}  // namespace bench
