#pragma once
// The convolution family's variant table (filter_variants.cpp): which filter ops list
// each variant.
#include <string>
#include <vector>

namespace gpufilter::ops {

// The kinds of spec a filter op makes, beyond the dense masks every variant runs.
struct FilterSpecKinds {
  bool rank1 = false;      // rank-1 masks: separable
  bool convex = false;     // convex rank-1 masks up to 9x9 (blur, box): separable_packed on 8 bits
  bool gradients = false;  // Sobel, Scharr and Prewitt magnitudes (edge): gradient_int
  bool gaussians = false;  // Gaussians of sigma >= 3 (blur): box_stack, decimated
  bool integer_masks = false;  // masks up to 3x3 of small integer weights: integer_3x3
};

// The names of the variants that run some spec of an op making these kinds, in the
// table's order (auto first).
std::vector<std::string> filter_variant_names(FilterSpecKinds kinds);

}  // namespace gpufilter::ops
