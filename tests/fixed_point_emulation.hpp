#pragma once
// The 8-bit kernels' integer arithmetic emulated on the CPU, for the tests of their
// weights (fixed_point_weights_test.cpp, packed_filter_weights_test.cpp).
#include <cstdint>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "kernels/convolution/separable_fixed_weights.hpp"
#include "common/border_index.hpp"

namespace gpufilter::testing {

inline const PixelFormat kGray8{ChannelType::U8, 1};

// A random gray image filtered by `output(mask, window, taps)`, which gives one pixel from
// its taps x taps window of inputs read under `border`, against the double reference.
template <class Output>
Difference emulated_vs_reference(const FilterSpec& spec, int width, int height, std::uint64_t seed, BorderMode border,
                                 Output output) {
  HostImage src(width, height, kGray8), expected(width, height, kGray8), actual(width, height, kGray8);
  fill_random(src.view(), seed);
  reference::apply_filter(src.view(), expected.view(), spec, Border{border});
  const kernels::FixedPointMask mask = kernels::fixed_point_mask(spec);
  const int r = mask.radius, taps = 2 * r + 1;
  std::vector<std::uint8_t> window(static_cast<std::size_t>(taps * taps));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      for (int j = 0; j < taps; ++j)
        for (int i = 0; i < taps; ++i)
          window[static_cast<std::size_t>(j * taps + i)] = src.view().row<std::uint8_t>(
              reference::border_index(y + j - r, height, border))[reference::border_index(x + i - r, width, border)];
      actual.view().row<std::uint8_t>(y)[x] = output(mask, window.data(), taps);
    }
  return compare(actual.view(), expected.view());
}

// The filter ops' contract on u8 gray.
inline Tolerance u8_filter_tolerance() { return find_operation("blur")->tolerance(kGray8); }

}  // namespace gpufilter::testing
