// The decimated Gaussian's plan on the CPU: for every sigma blur takes (3 to 100) the
// chain of down Gaussian, residual and interpolation is, as one 1-D filter at every
// phase, within the contract blur's decimated variant states of the truncated Gaussian
// the reference applies; and the plan's padding fits the kernels' fixed counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "blur_sigmas.hpp"
#include "gpufilter/filters.hpp"
#include "kernels/convolution/decimated_plan.hpp"
#include "kernels/convolution/decimated_segments.hpp"

namespace gpufilter::decimated_plan_test {
namespace {

using kernels::DecimatedAxis;
using kernels::DecimatedTuning;

using testing::sigmas_from;

// A straight edge between two flat areas comes out within 0.75 levels of 255 of the
// truncated Gaussian's (an untruncated Gaussian alone is 0.6 off).
TEST(DecimatedPlan, StepResponseWithinTheContractFromSigma3) {
  double worst = 0.0;
  for (double sigma : sigmas_from(3.0)) {
    const std::vector<float> factor = gaussian_weights(sigma, 0);
    const double error = kernels::decimated_step_error(kernels::decimated_axis(factor), factor);
    EXPECT_LE(error * 255.0, 0.75) << "sigma " << sigma;
    worst = std::max(worst, error);
  }
  RecordProperty("worst_step_error_levels", std::to_string(worst * 255.0));
}

// Every phase's weights sum to 1 (a flat image stays flat) and keep the factor's mean
// and variance: the chain is centred (within 0.2% of sigma at any phase) and as
// wide as the mask.
TEST(DecimatedPlan, EveryPhaseKeepsSumMeanAndVariance) {
  for (double sigma : sigmas_from(3.0)) {
    const std::vector<float> factor = gaussian_weights(sigma, 0);
    const int fr = static_cast<int>(factor.size()) / 2;
    double target = 0.0;
    for (int o = -fr; o <= fr; ++o) target += factor[static_cast<std::size_t>(o + fr)] * o * o;
    const DecimatedAxis axis = kernels::decimated_axis(factor);
    for (int p = 10 * axis.factor; p < 11 * axis.factor; ++p) {
      int r = 0;
      const std::vector<double> w = kernels::decimated_weights(axis, p, &r);
      double sum = 0.0, mean = 0.0, variance = 0.0;
      for (int o = -r; o <= r; ++o) {
        const double v = w[static_cast<std::size_t>(o + r)];
        sum += v;
        mean += v * o;
        variance += v * o * o;
      }
      EXPECT_NEAR(sum, 1.0, 1e-5) << "sigma " << sigma << " p " << p;
      EXPECT_NEAR(mean, 0.0, 2e-3 * sigma) << "sigma " << sigma << " p " << p;
      EXPECT_NEAR(variance, target, 0.01 * target) << "sigma " << sigma << " p " << p;
    }
  }
}

// The kernels' fixed counts: an input row feeds at most kDownSteps low-res rows, the
// weights past the down taps and the unused up taps are zero, and the residual fits.
TEST(DecimatedPlan, FitsTheKernelsFixedCounts) {
  for (double sigma : sigmas_from(3.0)) {
    const DecimatedAxis axis = kernels::decimated_axis(gaussian_weights(sigma, 0));
    const int h = axis.factor;
    EXPECT_GE(h, 2);
    EXPECT_LE(h, DecimatedTuning::kMaxFactor);
    EXPECT_LE(axis.down_taps, DecimatedTuning::kDownSteps * h) << "sigma " << sigma;
    ASSERT_EQ(axis.down.size(), static_cast<std::size_t>(DecimatedTuning::kDownSteps * h));
    for (std::size_t t = static_cast<std::size_t>(axis.down_taps); t < axis.down.size(); ++t)
      EXPECT_EQ(axis.down[t], 0.0f);
    ASSERT_EQ(axis.up.size(), static_cast<std::size_t>(DecimatedTuning::kUpTaps * h));
    EXPECT_LE(static_cast<int>(axis.residual.size()), DecimatedTuning::kMaxResidualTaps);
    EXPECT_EQ(static_cast<int>(axis.residual.size()), 2 * axis.residual_reach + 1);
  }
}

// The low-res extents cover what the interpolation reads: kUpTaps rows from each
// output's p / h, and the residual's reach around them.
TEST(DecimatedPlan, ExtentsCoverTheInterpolation) {
  for (double sigma : {3.0, 8.0, 30.0, 100.0})
    for (int length : {1, 2, 7, 100, 4320}) {
      const DecimatedAxis axis = kernels::decimated_axis(gaussian_weights(sigma, 0));
      const kernels::DecimatedExtent e = kernels::decimated_extent(axis, length);
      EXPECT_EQ(e.residual_count, (length - 1) / axis.factor + DecimatedTuning::kUpTaps);
      EXPECT_EQ(e.down_count, e.residual_count + 2 * axis.residual_reach);
      EXPECT_EQ(e.down_first, axis.up_first - axis.residual_reach);
    }
}

// The down pass's segments fill the GPU where the rows allow: at sigma 30 on 8K (196
// low-res rows, 20 blocks across, 264 slots on an H100) the old floor of 24 rows left
// 180 blocks for the 264 slots; the model takes one full wave of shorter segments.
TEST(DecimatedPlan, DownSegmentsFillTheGpu) {
  // Sigma 30 on 8K (h = 22): 213 steps, 20 blocks across, 264 slots on an H100.
  const int steps = 213;
  const long long across = 20, slots = 264;
  const int segment = kernels::decimated_down_segment(steps, across, slots);
  const long long blocks = across * ((steps + segment - 1) / segment);
  EXPECT_LE(blocks, slots);
  EXPECT_GT(blocks, 200);
  EXPECT_GE(segment, DecimatedTuning::kMinDownSegment);
  // Where splitting would only add waves, a block takes every step.
  EXPECT_EQ(kernels::decimated_down_segment(8, 200, 264), 8);
  // With no warm-up to pay, four full waves of short segments beat one wave that leaves
  // a quarter of the slots idle.
  EXPECT_EQ(kernels::decimated_down_segment(50, 200, 264), 10);
  // Sigma 8 on 8K (h = 5; 883 steps, 16 blocks across): one wave of 16 bands of 56.
  EXPECT_EQ(kernels::decimated_down_segment(883, 16, 264), 56);
  // Fewer steps than the floor: one segment of all of them.
  EXPECT_EQ(kernels::decimated_down_segment(3, 4, 264), 3);
}

// The down pass's bookkeeping, replayed on the CPU: every segment adds step s into rows
// s - kOverlap .. s and stores each row it touched where decimate_kernel does (d for the
// rows from its first step on, a carry row before); each row of d plus its carry row, as
// the residual kernel reads them, must then hold all of its kDownSteps steps, and no
// place may be stored twice.
TEST(DecimatedPlan, DownSegmentsHandEveryRowOnOnce) {
  using kernels::DownSegments;
  for (int ring = DecimatedTuning::kDownSteps - 1; ring <= DecimatedTuning::kDownSteps; ++ring)
    for (int rows = 1; rows <= 40; ++rows) {
      const int overlap = ring - 1;
      const int steps = rows + overlap;
      for (int length = std::min(steps, DecimatedTuning::kMinDownSegment); length <= steps; ++length) {
        const DownSegments segments{length, overlap};
        ASSERT_EQ(segments.steps(rows), steps);
        std::vector<int> d(static_cast<std::size_t>(rows), -1);
        std::vector<int> carry(static_cast<std::size_t>(segments.carry_rows(rows)), -1);
        bool stored_twice = false;
        for (int first = 0; first < steps; first += length) {
          const int end = std::min(first + length, steps);
          std::vector<int> sums(static_cast<std::size_t>(rows), 0);
          for (int s = first; s < end; ++s)
            for (int k = 0; k < ring; ++k)
              if (s - k >= 0 && s - k < rows) ++sums[static_cast<std::size_t>(s - k)];
          for (int y = std::max(0, first - overlap); y < std::min(end, rows); ++y) {
            int& place = y < first ? carry.at(static_cast<std::size_t>(segments.carry_from(first, y)))
                                   : d[static_cast<std::size_t>(y)];
            stored_twice = stored_twice || place >= 0;
            place = sums[static_cast<std::size_t>(y)];
          }
        }
        EXPECT_FALSE(stored_twice) << rows << " rows, segments of " << length << ", ring " << ring;
        for (int y = 0; y < rows; ++y) {
          const int c = segments.carry_of(y);
          const int total = d[static_cast<std::size_t>(y)] + (c >= 0 ? carry.at(static_cast<std::size_t>(c)) : 0);
          EXPECT_EQ(total, ring) << "row " << y << " of " << rows << ", segments of " << length << ", ring " << ring;
        }
      }
    }
}

// The down pass's ring: the taps of the down Gaussian span at most kDownSteps steps of
// h rows at every sigma, and one less from h = 10 on (decimate_kernel's kSteps).
TEST(DecimatedPlan, DownTapsFitTheRing) {
  for (double sigma : {3.0, 5.0, 8.0, 13.0, 13.4, 20.0, 30.0, 60.0, 100.0}) {
    const DecimatedAxis axis = kernels::decimated_axis(gaussian_weights(sigma, 0));
    const int steps = kernels::decimated_down_steps(axis);
    EXPECT_LE(steps, DecimatedTuning::kDownSteps) << "sigma " << sigma;
    if (axis.factor >= 10) {
      EXPECT_EQ(steps, DecimatedTuning::kDownSteps - 1) << "sigma " << sigma;
    }
  }
}

}  // namespace
}  // namespace gpufilter::decimated_plan_test
