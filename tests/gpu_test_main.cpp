// The GPU tests' entry point. Where no CUDA device is usable, say so once and exit
// with ctest's "skipped" code instead of failing every case, unless
// GPUFILTER_REQUIRE_GPU=1 says a GPU must be there (scripts/gpu-check sets it): then a
// broken driver or a hidden device fails the run instead of passing it unseen.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gpufilter/device.hpp"

namespace {

bool gpu_required() {
  const char* value = std::getenv("GPUFILTER_REQUIRE_GPU");
  return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!gpufilter::has_device()) {
    if (gpu_required()) {
      std::printf("FAILED: GPUFILTER_REQUIRE_GPU is set but no CUDA device is usable (%s)\n",
                  gpufilter::no_device_reason().c_str());
      return 1;
    }
    std::printf("SKIPPED: no usable CUDA device (%s); the GPU tests need one\n",
                gpufilter::no_device_reason().c_str());
    return 77;
  }
  std::printf("GPU: %s\n", gpufilter::device_description().c_str());
  return RUN_ALL_TESTS();
}
