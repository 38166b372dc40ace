#include "common/device_limits.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "gpufilter/error.hpp"

namespace gpufilter::kernels {

std::size_t max_shared_memory_per_block() {
  int device = 0, optin = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDevice(&device));
  GPUFILTER_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  std::size_t limit = static_cast<std::size_t>(optin);
  if (const char* cap = std::getenv("GPUFILTER_SHARED_MEMORY_LIMIT"); cap != nullptr && *cap != '\0') {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(cap, &end, 10);
    if (end == cap || *end != '\0')
      throw Error(ErrorCode::InvalidArgument,
                  std::string("GPUFILTER_SHARED_MEMORY_LIMIT must be a number of bytes, got '") + cap + "'");
    limit = std::min<std::size_t>(limit, static_cast<std::size_t>(value));
  }
  return limit;
}

}  // namespace gpufilter::kernels
