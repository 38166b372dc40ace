#pragma once
// Which specs the vertical-first 8-bit kernel (separable_packed.cu) runs, and its
// arithmetic emulated on the host (plain C++: the CPU tests compare it with the
// reference). It runs the integer mask of separable_fixed (separable_fixed_weights.hpp)
// in the other order, vertical pass first, per channel sample with b the input bytes:
//   h   = (sum_j qy[j] * b[y + j - R] + h_round) >> h_shift    (vertical, 32-bit)
//   acc =  sum_i qx[i] * h[x + i - R] + v_round                  (horizontal, 32-bit)
//   out = umulhi(acc, out_mul)
// The same bounds hold (h <= 255 * 2^8, acc < 2^32), and the factors are symmetric, so
// the kernel sums the two taps at +-d before one multiply.
#include <cstdint>

#include "gpufilter/filter_spec.hpp"
#include "gpufilter/pixel_format.hpp"
#include "separable_fixed_weights.hpp"

namespace gpufilter::kernels {

// separable_fixed_fits() (u8, one convex rank-1 mask up to 9x9, Linear, no bias,
// RGBA only with AlphaMode::Separate), on 1-, 3- or 4-channel images, with integer factors
// symmetric about their centre (blur and box always are).
bool separable_packed_fits(PixelFormat format, const FilterSpec& spec);

// The kernel's output for one channel sample from the (2R+1)^2 input bytes around it,
// window[j][i] = b(x + i - R, y + j - R), R = mask.radius: the same integer steps.
std::uint8_t separable_packed_output(const FixedPointMask& mask, const std::uint8_t* window, int window_stride);

}  // namespace gpufilter::kernels
