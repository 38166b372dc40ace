// Which specs separable_packed runs, and its arithmetic on the host (separable_packed_weights.hpp).
#include "convolution/separable_packed_weights.hpp"

#include <cstddef>

namespace gpufilter::kernels {
namespace {

template <class Q>
bool symmetric(const Q& q, int radius) {
  for (int d = 1; d <= radius; ++d)
    if (q[static_cast<std::size_t>(radius - d)] != q[static_cast<std::size_t>(radius + d)]) return false;
  return true;
}

}  // namespace

bool separable_packed_fits(PixelFormat format, const FilterSpec& spec) {
  if (format.channels != 1 && format.channels != 3 && format.channels != 4) return false;
  if (!separable_fixed_fits(format, spec)) return false;
  const FixedPointMask mask = fixed_point_mask(spec);
  return symmetric(mask.qx, mask.radius) && symmetric(mask.qy, mask.radius);
}

std::uint8_t separable_packed_output(const FixedPointMask& mask, const std::uint8_t* window, int window_stride) {
  const int taps = 2 * mask.radius + 1;
  std::uint32_t acc = mask.v_round;
  for (int i = 0; i < taps; ++i) {
    std::uint32_t h = mask.h_round;
    for (int j = 0; j < taps; ++j)
      h += mask.qy[static_cast<std::size_t>(j)] * window[static_cast<std::size_t>(j) * window_stride + i];
    acc += mask.qx[static_cast<std::size_t>(i)] * (h >> mask.h_shift);
  }
  return static_cast<std::uint8_t>((static_cast<std::uint64_t>(acc) * mask.out_mul) >> 32);
}

}  // namespace gpufilter::kernels
