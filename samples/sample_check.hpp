#pragma once
// What the samples share: a deterministic test image and a comparison with the CPU
// reference. Samples exit 77 where no GPU is usable (ctest reports them as skipped).
#include <gpufilter/gpufilter.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace sample {

constexpr int kNoGpu = 77;

// An 8-bit RGBA image with structure: a gradient, a bright disc and fine stripes.
inline void draw_test_image(const gpufilter::ImageView& view) {
  for (int y = 0; y < view.height; ++y) {
    auto* row = view.row<std::uint8_t>(y);
    for (int x = 0; x < view.width; ++x) {
      const int dx = x - view.width / 2, dy = y - view.height / 2;
      const bool disc = dx * dx + dy * dy < view.height * view.height / 9;
      row[4 * x + 0] = static_cast<std::uint8_t>(disc ? 230 : (x * 255) / view.width);
      row[4 * x + 1] = static_cast<std::uint8_t>(disc ? 200 : (y * 255) / view.height);
      row[4 * x + 2] = static_cast<std::uint8_t>((x / 3 + y / 5) % 2 ? 40 : 180);
      row[4 * x + 3] = 255;
    }
  }
}

// Largest channel difference between two 8-bit views of one size.
inline int max_difference(const gpufilter::ImageView& a, const gpufilter::ImageView& b) {
  int largest = 0;
  for (int y = 0; y < a.height; ++y)
    for (std::size_t i = 0; i < a.row_bytes(); ++i) {
      const int d = std::abs(a.row<std::uint8_t>(y)[i] - b.row<std::uint8_t>(y)[i]);
      if (d > largest) largest = d;
    }
  return largest;
}

// Prints the comparison; returns the exit code (1 beyond one level).
inline int report(const char* what, int difference) {
  std::printf("%s: largest difference from the CPU reference %d level(s)\n", what, difference);
  return difference <= 1 ? 0 : 1;
}

}  // namespace sample
