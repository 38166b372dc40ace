#pragma once
// Host-side image chores of the bench: random sources and the check against the
// reference. Both split rows across the host's cores: an 8K f32x4 image is 0.5 GiB.
#include <cstdint>
#include <string>

#include "gpufilter/image_view.hpp"

namespace bench {

// Fills a host image with random values over the format's whole range (f32: [0, 1)),
// the same values for the same seed. Random, never constant: a kernel that reads the
// wrong pixel or ignores its input cannot match the reference by luck.
void fill_random(const gpufilter::ImageView& image, std::uint64_t seed);

struct Comparison {
  bool ok = true;
  double max_error = 0.0;  // largest |actual - expected| over every channel, in the format's units
  std::string first_failure;  // where and by how much, for the error message; empty when ok
};

// Channel-wise |actual - expected| <= tolerance; a NaN anywhere fails.
Comparison compare_images(const gpufilter::ImageView& actual, const gpufilter::ImageView& expected,
                          double tolerance);

}  // namespace bench
