// The kernels' runtime border mapping (common/border_map.hpp), both forms, against the
// reference's step-by-step one, for every mode, axes of 1 pixel up, and coordinates far
// past both ends: a 1x1 image under an 11x7 mask reads 5 pixels beyond it, a large sigma
// on a small image many periods beyond.
#include <gtest/gtest.h>

#include "common/border_map.hpp"
#include "gpufilter/border.hpp"
#include "common/border_index.hpp"

namespace gpufilter::kernels::border_map_test {
namespace {

// Both forms at coordinate i of an axis of n; Constant's branch-free form must stay
// inside the image (its reads load a pixel, then take the constant instead).
void expect_maps(int i, int n, BorderMode mode) {
  const int expected = reference::border_index(i, n, mode);
  ASSERT_EQ(border_map(i, n, mode), expected) << to_string(mode) << " n " << n << " i " << i;
  const int branch_free = border_map(i, n, border_axis(mode, n));
  if (mode == BorderMode::Constant) {
    ASSERT_TRUE(branch_free >= 0 && branch_free < n) << "constant n " << n << " i " << i;
    if (i >= 0 && i < n) {
      ASSERT_EQ(branch_free, i);
    }
  } else {
    ASSERT_EQ(branch_free, expected) << to_string(mode) << " (branch-free) n " << n << " i " << i;
  }
}

TEST(BorderMap, MatchesTheReferenceForEveryMode) {
  for (BorderMode mode : all_border_modes())
    for (int n = 1; n <= 40; ++n)
      for (int i = -5 * n - 70; i <= 6 * n + 70; ++i) {
        expect_maps(i, n, mode);
        if (HasFatalFailure()) return;
      }
}

TEST(BorderMap, LargeAxes) {
  for (BorderMode mode : all_border_modes())
    for (int n : {1079, 1921, 7680, 65536})
      for (int i = -700; i <= 700; ++i) {
        expect_maps(i, n, mode);
        expect_maps(n - 1 + i, n, mode);
        if (HasFatalFailure()) return;
      }
}

}  // namespace
}  // namespace gpufilter::kernels::border_map_test
