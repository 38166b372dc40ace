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

// fixed_point_mask_fits() up to kMaxRadius (u8, one convex rank-1 mask, Linear, no bias), on 1-,
// 3- or 4-channel images, with integer factors symmetric about their centre (blur and box
// always are). RGBA runs with AlphaMode::Separate, and with AlphaMode::Premultiply:
// colours are multiplied by their alpha as they are loaded and divided by the filtered
// alpha as they are stored, in the same pass (separable_packed_premultiplied_output).
bool separable_packed_fits(PixelFormat format, const FilterSpec& spec);

// The kernel's output for one channel sample from the (2R+1)^2 input bytes around it,
// window[j][i] = b(x + i - R, y + j - R), R = mask.radius: the same integer steps.
std::uint8_t separable_packed_output(const FixedPointMask& mask, const std::uint8_t* window, int window_stride);

// Premultiplied RGBA. Per colour sample, p = b * a (at most 255^2) the premultiplied value:
//   weighted masks: h = (sum_j qy[j] * p + 2^15) >> 16;  acc = sum_i qx[i] * h
//                   (both below 255^2 * 2^16 < 2^32); alpha as separable_packed_output
//                   with acc_a its horizontal sum less v_round, and
//                   colour = round(acc * 2^8 / acc_a): sum(w b a) / sum(w a);
//   boxes:          plain sums of p and of a (at most 81 * 255^2), colour = round(acc / acc_a),
//                   alpha = the box's rounded division as separable_packed_output.
// A colour is 0 where the filtered alpha is at most kMinUnpremultiplyAlpha of the range,
// as the reference has it. `window` holds (2R+1)^2 RGBA pixels, `window_stride` pixels a
// row; writes the 4 output samples.
void separable_packed_premultiplied_output(const FixedPointMask& mask, const std::uint8_t* window, int window_stride,
                                           std::uint8_t* out);

// The filtered alpha (in units of the kernels' alpha accumulator, acc_a above) at or below
// which a colour is 0: kMinUnpremultiplyAlpha of the range, scaled as acc_a is.
float premultiplied_min_alpha_acc(const FixedPointMask& mask);

}  // namespace gpufilter::kernels
