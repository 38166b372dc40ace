#pragma once
// A stats position (a pixel's row-major index) as its column and row: plain C++ that the
// stats kernels' last block runs and the CPU tests check.
#include "common/host_device.hpp"

namespace gpufilter::kernels {

struct PixelXY {
  unsigned long long x = 0, y = 0;
};

// p < n, the image's pixel count. Below 2^32 pixels the division is 32-bit: a 64-bit
// division is a long emulated sequence on the GPU, and it runs on the kernel's last,
// lone block.
GPUFILTER_HD PixelXY position_xy(unsigned long long p, unsigned width, unsigned long long n) {
  if (n <= 0xffffffffULL) {
    const unsigned q = static_cast<unsigned>(p) / width;
    return PixelXY{static_cast<unsigned>(p) - q * width, q};
  }
  return PixelXY{p % width, p / width};
}

}  // namespace gpufilter::kernels
