// Which specs separable_packed runs, and its arithmetic on the host (separable_packed_weights.hpp).
#include "convolution/separable_packed_weights.hpp"

#include "convolution/separable_packed_tuning.hpp"

#include <algorithm>
#include <cmath>
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
  if (format.channels == 4 && spec.alpha != AlphaMode::Separate && spec.alpha != AlphaMode::Premultiply) return false;
  if (!fixed_point_mask_fits(format, spec, SeparablePackedTuning::kMaxRadius)) return false;
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

float premultiplied_min_alpha_acc(const FixedPointMask& mask) {
  const double least = kMinUnpremultiplyAlpha * 255.0;
  if (mask.box) {
    int taps_x = 0, taps_y = 0;
    for (std::uint32_t q : mask.qx) taps_x += q != 0 ? 1 : 0;
    for (std::uint32_t q : mask.qy) taps_y += q != 0 ? 1 : 0;
    return static_cast<float>(least * taps_x * taps_y);
  }
  return static_cast<float>(least * 16777216.0);  // acc_a is alpha * 2^24
}

void separable_packed_premultiplied_output(const FixedPointMask& mask, const std::uint8_t* window, int window_stride,
                                           std::uint8_t* out) {
  const int taps = 2 * mask.radius + 1;
  auto sample = [&](int j, int i, int c) {
    return static_cast<std::uint32_t>(window[(static_cast<std::size_t>(j) * window_stride + i) * 4 + c]);
  };
  std::uint32_t acc[4] = {0, 0, 0, 0};
  for (int i = 0; i < taps; ++i)
    for (int c = 0; c < 4; ++c) {
      const bool colour = c < 3;
      std::uint32_t h = mask.box ? 0u : colour ? (1u << 15) : mask.h_round;
      for (int j = 0; j < taps; ++j) {
        const std::uint32_t p = colour ? sample(j, i, c) * sample(j, i, 3) : sample(j, i, c);
        h += mask.qy[static_cast<std::size_t>(j)] * p;
      }
      if (!mask.box) h >>= colour ? 16u : mask.h_shift;
      acc[c] += mask.qx[static_cast<std::size_t>(i)] * h;
    }
  out[3] = static_cast<std::uint8_t>((static_cast<std::uint64_t>(acc[3] + mask.v_round) * mask.out_mul) >> 32);
  const float alpha = static_cast<float>(acc[3]);
  const bool visible = alpha > premultiplied_min_alpha_acc(mask);
  const float scale = mask.box ? 1.0f : 256.0f;
  for (int c = 0; c < 3; ++c) {
    const float v = visible ? static_cast<float>(acc[c]) * scale / alpha : 0.0f;
    out[c] = static_cast<std::uint8_t>(std::lrint(std::min(v, 255.0f)));
  }
}

}  // namespace gpufilter::kernels
