#pragma once
// filter_spec.hpp's output rule over one row of sums, shared by the CPU filter paths.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "common/vector_build.hpp"
#include "gpufilter/filter_spec.hpp"

namespace gpufilter::cpu {

// The output of one row, in place in `sums0`, from the centre values (premultiplied where
// the spec says; the raw alpha where it keeps alpha) and the second mask's sums
// (Magnitude). `max`: the channel's range (1 for float).
template <class T>
GPUFILTER_INLINE void finish_row(const FilterSpec& spec, int channels, int width, T max, const T* centre, T* sums0,
                                  const T* sums1) {
  const int n = width * channels;
  const auto threshold = static_cast<T>(spec.threshold * max);
  const auto amount = static_cast<T>(spec.amount);
  const auto bias = static_cast<T>(spec.bias * max);
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  switch (spec.output) {
    case FilterOutput::Linear:
      if (bias != T(0))
        for (int i = 0; i < n; ++i) sums0[i] += bias;
      break;
    case FilterOutput::Unsharp:
      for (int i = 0; i < n; ++i) {
        // Both outcomes, one picked by a bit mask: no branch, so the loop vectorizes.
        const T detail = centre[i] - sums0[i];
        const T sharpened = centre[i] + amount * detail;
        const Bits pick = std::fabs(detail) > threshold ? ~Bits(0) : Bits(0);
        sums0[i] = std::bit_cast<T>((std::bit_cast<Bits>(sharpened) & pick) | (std::bit_cast<Bits>(centre[i]) & ~pick));
      }
      break;
    case FilterOutput::Magnitude:
      for (int i = 0; i < n; ++i) sums0[i] = std::sqrt(sums0[i] * sums0[i] + sums1[i] * sums1[i]);
      break;
  }
  if (channels != 4) return;
  if (spec.alpha == AlphaMode::Premultiply) {
    const T least = static_cast<T>(kMinUnpremultiplyAlpha) * max;
    for (int x = 0; x < width; ++x) {
      T* p = sums0 + 4 * x;
      const T alpha = std::clamp(p[3], T(0), max);
      for (int c = 0; c < 3; ++c) p[c] = alpha > least ? p[c] * max / alpha : T(0);
      p[3] = alpha;
    }
  } else if (spec.alpha == AlphaMode::Keep) {
    for (int x = 0; x < width; ++x) sums0[4 * x + 3] = centre[4 * x + 3];
  }
}

// Colours times alpha over the range, in place (one row of 4-channel pixels).
template <class T>
void premultiply_row(T* rgba, int width, T max) {
  for (int x = 0; x < width; ++x, rgba += 4) {
    const T a = rgba[3] / max;
    rgba[0] *= a;
    rgba[1] *= a;
    rgba[2] *= a;
  }
}

}  // namespace gpufilter::cpu
