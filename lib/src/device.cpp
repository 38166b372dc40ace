#include "gpufilter/device.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace gpufilter {

int device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

namespace {

// "13.0" from CUDA's version number 13000.
std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

std::string no_device_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaSuccess) return count > 0 ? "" : "the NVIDIA driver finds no GPU";
  cudaGetLastError();
  // The runtime reports a missing driver as one too old: tell them apart, as the user's
  // remedy differs (install one, or update it).
  int driver = 0;
  int runtime = 0;
  cudaDriverGetVersion(&driver);  // 0 where no driver library is installed
  cudaRuntimeGetVersion(&runtime);
  switch (status) {
    case cudaErrorInsufficientDriver:
      if (driver == 0) return "no NVIDIA driver is installed";
      return "the NVIDIA driver supports CUDA " + cuda_version_text(driver) + ", older than the CUDA " +
             cuda_version_text(runtime) + " this gpufilter was built with";
    case cudaErrorNoDevice: {
      const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
      if (visible != nullptr) return std::string("no GPU is visible (CUDA_VISIBLE_DEVICES=") + visible + ")";
      return "the NVIDIA driver finds no GPU";
    }
    case cudaErrorDevicesUnavailable: return "every GPU is busy in exclusive-process mode or unavailable";
    default: return cudaGetErrorString(status);
  }
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
