#include "common/scratch_pool.hpp"

#include <cstdint>
#include <mutex>
#include <vector>

#include "gpufilter/error.hpp"

namespace gpufilter::kernels {

cudaMemPool_t scratch_pool() {
  static std::mutex mutex;
  static std::vector<cudaMemPool_t> pools;  // by device ordinal; never destroyed (process lifetime)
  int device = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  if (pools.size() <= static_cast<std::size_t>(device)) pools.resize(static_cast<std::size_t>(device) + 1, nullptr);
  cudaMemPool_t& pool = pools[static_cast<std::size_t>(device)];
  if (pool == nullptr) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t created = nullptr;
    GPUFILTER_CUDA_CHECK(cudaMemPoolCreate(&created, &props));
    std::uint64_t keep = ScratchPoolTuning::kKeepBytes;
    GPUFILTER_CUDA_CHECK(cudaMemPoolSetAttribute(created, cudaMemPoolAttrReleaseThreshold, &keep));
    pool = created;
  }
  return pool;
}

}  // namespace gpufilter::kernels
