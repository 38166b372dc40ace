#pragma once
// For GPU tests: lowers the shared memory a block may use, as a smaller GPU would, for
// one scope (through GPUFILTER_SHARED_MEMORY_LIMIT, which kernels/common/device_limits
// reads).
#include <cstddef>
#include <cstdlib>
#include <string>

namespace gpufilter {

class SharedMemoryCap {
 public:
  explicit SharedMemoryCap(std::size_t bytes) { setenv("GPUFILTER_SHARED_MEMORY_LIMIT", std::to_string(bytes).c_str(), 1); }
  ~SharedMemoryCap() { unsetenv("GPUFILTER_SHARED_MEMORY_LIMIT"); }
  SharedMemoryCap(const SharedMemoryCap&) = delete;
  SharedMemoryCap& operator=(const SharedMemoryCap&) = delete;
};

// Per-block opt-in shared memory of the architectures the build targets.
constexpr std::size_t kSm75SharedMemory = 64 * 1024, kSm86SharedMemory = 99 * 1024, kSm80SharedMemory = 163 * 1024;

}  // namespace gpufilter
