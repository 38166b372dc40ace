#include "cuda_timer.hpp"

#include <algorithm>

#include "gpufilter/error.hpp"

namespace bench {

L2Flusher::L2Flusher() {
  int device = 0;
  int l2_bytes = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  GPUFILTER_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
  // Twice the L2 so no line of the previous launch survives, and never tiny: the
  // flush also gives the host time to enqueue the timed launch (see timed_launch_ms).
  constexpr std::size_t kMinBytes = std::size_t{64} << 20;
  bytes_ = std::max(2 * static_cast<std::size_t>(l2_bytes), kMinBytes);
  GPUFILTER_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
}

L2Flusher::~L2Flusher() {
  if (buffer_ != nullptr) cudaFree(buffer_);
}

void L2Flusher::flush(cudaStream_t stream) {
  value_ = (value_ + 1) & 0xFF;
  GPUFILTER_CUDA_CHECK(cudaMemsetAsync(buffer_, value_, bytes_, stream));
}

EventTimer::EventTimer() {
  GPUFILTER_CUDA_CHECK(cudaEventCreate(&start_));
  GPUFILTER_CUDA_CHECK(cudaEventCreate(&stop_));
}

EventTimer::~EventTimer() {
  if (start_ != nullptr) cudaEventDestroy(start_);
  if (stop_ != nullptr) cudaEventDestroy(stop_);
}

double EventTimer::time_ms(cudaStream_t stream, const std::function<void()>& launch) {
  GPUFILTER_CUDA_CHECK(cudaEventRecord(start_, stream));
  launch();
  GPUFILTER_CUDA_CHECK(cudaEventRecord(stop_, stream));
  GPUFILTER_CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0.0f;
  GPUFILTER_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return static_cast<double>(ms);
}

double timed_launch_ms(cudaStream_t stream, const std::function<void()>& launch, L2Flusher& flusher,
                       EventTimer& timer) {
  flusher.flush(stream);
  return timer.time_ms(stream, launch);
}

void warm_up(cudaStream_t stream, const std::function<void()>& launch, int count) {
  for (int i = 0; i < count; ++i) launch();
  GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::vector<double> time_launches(cudaStream_t stream, const std::function<void()>& launch, int warmup,
                                  int iterations, L2Flusher& flusher, EventTimer& timer) {
  warm_up(stream, launch, warmup);
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(iterations));
  for (int i = 0; i < iterations; ++i) samples.push_back(timed_launch_ms(stream, launch, flusher, timer));
  return samples;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

}  // namespace bench
