#pragma once
// Host-side helpers shared by the tests: random images (never all zeros),
// comparisons that say where they failed.
#include <cstdint>
#include <string>

#include "gpufilter/images.hpp"

namespace gpufilter::testing {

// Fills every channel with uniform random values over the format's range
// (f32: [0, 1)), from `seed`.
void fill_random(const ImageView& view, std::uint32_t seed);

struct Difference {
  double max_abs = 0.0;
  int x = -1, y = -1, channel = -1;  // where max_abs was found
  double actual = 0.0, expected = 0.0;
  bool has_nan = false;
  std::string describe() const;
};

// Largest per-channel |actual - expected| (NaN in actual counts as failure).
Difference compare(const ImageView& actual, const ImageView& expected);

// Writes into `view` a value that differs from `reference` at every channel
// (integers: the top bit flipped; floats: NaN), so an unwritten pixel always fails.
void poison_against(const ImageView& view, const ImageView& reference);

double channel_value(const ImageView& view, int x, int y, int c);

}  // namespace gpufilter::testing
