#include "common/occupancy_cache.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <tuple>

#include "gpufilter/error.hpp"

namespace gpufilter::kernels {
namespace {

std::mutex& cache_mutex() {
  static std::mutex mutex;
  return mutex;
}

// An attribute of the current device, asked once per device and attribute.
int cached_attribute(cudaDeviceAttr attribute) {
  static std::map<std::tuple<int, int>, int> values;  // (device, attribute) -> value
  int device = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(cache_mutex());
  const std::tuple<int, int> key{device, static_cast<int>(attribute)};
  auto it = values.find(key);
  if (it == values.end()) {
    int value = 0;
    GPUFILTER_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
    it = values.emplace(key, value).first;
  }
  return it->second;
}

}  // namespace

int cached_sm_count() {
  const int sms = cached_attribute(cudaDevAttrMultiProcessorCount);
  return sms < 1 ? 1 : sms;
}

int cached_compute_major() { return cached_attribute(cudaDevAttrComputeCapabilityMajor); }

namespace {

// Under cache_mutex(): raises `kernel`'s dynamic shared-memory limit on `device` to
// `shared_bytes` unless a larger one is set already.
void allow_dynamic_shared_locked(const void* kernel, int device, std::size_t shared_bytes, std::size_t static_bytes) {
  static std::map<std::tuple<const void*, int>, std::size_t> opted_in;  // the largest size set so far
  if (static_bytes + shared_bytes <= std::size_t{48} * 1024) return;  // the default limit allows it
  std::size_t& opted = opted_in[{kernel, device}];
  if (shared_bytes <= opted) return;
  GPUFILTER_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
  opted = shared_bytes;
}

}  // namespace

void allow_dynamic_shared(const void* kernel, std::size_t shared_bytes, std::size_t static_bytes) {
  int device = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(cache_mutex());
  allow_dynamic_shared_locked(kernel, device, shared_bytes, static_bytes);
}

int cached_blocks_per_sm(const void* kernel, int threads, std::size_t shared_bytes, std::size_t static_bytes) {
  using Key = std::tuple<const void*, int, int, std::size_t>;
  static std::map<Key, int> blocks;
  int device = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  const Key key{kernel, device, threads, shared_bytes};
  const std::lock_guard<std::mutex> lock(cache_mutex());
  allow_dynamic_shared_locked(kernel, device, shared_bytes, static_bytes);
  auto it = blocks.find(key);
  if (it == blocks.end()) {
    int per_sm = 0;
    GPUFILTER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
    it = blocks.emplace(key, per_sm < 1 ? 1 : per_sm).first;
  }
  return it->second;
}

void prefer_shared_carveout(const void* kernel) {
  static std::map<std::tuple<const void*, int>, bool> done;
  int device = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(cache_mutex());
  bool& set = done[{kernel, device}];
  if (!set) {
    GPUFILTER_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    set = true;
  }
}

}  // namespace gpufilter::kernels
