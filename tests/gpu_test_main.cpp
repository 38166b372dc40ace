// The GPU tests' entry point: where no CUDA device is usable, say so once and exit
// with ctest's "skipped" code instead of failing every case.
#include <gtest/gtest.h>

#include <cstdio>

#include "gpufilter/device.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!gpufilter::has_device()) {
    std::printf("SKIPPED: no usable CUDA device (%s); the GPU tests need one\n",
                gpufilter::no_device_reason().c_str());
    return 77;
  }
  std::printf("GPU: %s\n", gpufilter::device_description().c_str());
  return RUN_ALL_TESTS();
}
