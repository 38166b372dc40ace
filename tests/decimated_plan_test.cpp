// The decimated Gaussian's plan on the CPU: for every sigma blur takes (3 to 100) the
// chain of down Gaussian, residual and interpolation is, as one 1-D filter at every
// phase, within the contract blur's decimated variant states of the truncated Gaussian
// the reference applies; and the plan's padding fits the kernels' fixed counts.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "blur_sigmas.hpp"
#include "gpufilter/filters.hpp"
#include "kernels/convolution/decimated_plan.hpp"

namespace gpufilter {
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
  const int rows = 196;
  const long long across = 20, slots = 264;
  const int segment = kernels::decimated_down_segment(rows, across, slots);
  const long long blocks = across * ((rows + segment - 1) / segment);
  EXPECT_LE(blocks, slots);
  EXPECT_GT(blocks, 180);
  EXPECT_GE(segment, DecimatedTuning::kMinDownSegment);
  // Where one band of blocks fits the GPU and two would not, a block takes every row.
  EXPECT_EQ(kernels::decimated_down_segment(50, 200, 264), 50);
  // Sigma 8 on 8K (720 rows, 16 blocks across): one wave of 16 bands of 45 rows.
  EXPECT_EQ(kernels::decimated_down_segment(720, 16, 264), 45);
  // Fewer rows than the floor: one segment of all of them.
  EXPECT_EQ(kernels::decimated_down_segment(3, 4, 264), 3);
}

}  // namespace
}  // namespace gpufilter
