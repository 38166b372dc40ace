#include "gpufilter/device.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>

namespace gpufilter {

int device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

std::string no_device_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    return cudaGetErrorString(status);
  }
  return count > 0 ? "" : "no CUDA device found";
}

std::string device_description() {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    return "no CUDA device";
  }
  char text[512];
  std::snprintf(text, sizeof text, "%s (sm_%d%d, %d SMs, %.1f GiB, L2 %d MiB)", prop.name, prop.major,
                prop.minor, prop.multiProcessorCount,
                static_cast<double>(prop.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0),
                prop.l2CacheSize / (1024 * 1024));
  return text;
}

}  // namespace gpufilter
