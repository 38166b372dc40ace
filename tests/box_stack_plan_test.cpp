// The stacked-box Gaussian's plan and recurrence, on the CPU: the box radii chosen for
// each sigma keep the accuracy contract that blur's box_stack variant states, and the
// running-sum walk the kernels run (warm-up, zero before the first input row, border
// rows) gives exactly the stack's 1-D filter on every border mode.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "blur_sigmas.hpp"
#include "gpufilter/filters.hpp"
#include "kernels/convolution/box_stack_plan.hpp"

namespace gpufilter::box_stack_plan_test {
namespace {

using kernels::box_stack_plan;
using kernels::box_stack_step_error;
using kernels::box_stack_weights;
using kernels::BoxStackPlan;
using kernels::BoxStackSums;
using kernels::kBoxStackReads;

constexpr int kBoxes = kernels::BoxStackTuning::kBoxes;

using testing::sigmas_from;

// The contract blur's box_stack states (filter_operations.cpp, docs): a straight edge
// between two flat areas comes out within 2.8 levels of 255 of the truncated Gaussian's.
TEST(BoxStackPlan, StepResponseWithinTheContractFromSigma3) {
  double worst = 0.0;
  for (double sigma : sigmas_from(kernels::BoxStackTuning::kMinSigma)) {
    const std::vector<float> factor = gaussian_weights(sigma, 0);
    const double error = box_stack_step_error(box_stack_plan(factor), factor);
    EXPECT_LE(error * 255.0, 2.8) << "sigma " << sigma;
    worst = std::max(worst, error);
  }
  RecordProperty("worst_step_error_levels", std::to_string(worst * 255.0));
}

TEST(BoxStackPlan, VarianceRadiiOffsetsAndScaleAgree) {
  for (double sigma : sigmas_from(kernels::BoxStackTuning::kMinSigma)) {
    const std::vector<float> factor = gaussian_weights(sigma, 0);
    const BoxStackPlan plan = box_stack_plan(factor);
    double variance = 0.0, product = 1.0;
    int total = 0;
    for (int k = 0; k < kBoxes; ++k) {
      EXPECT_GE(plan.radius[k], 0);
      variance += plan.radius[k] * (plan.radius[k] + 1) / 3.0;
      product *= 2 * plan.radius[k] + 1;
      total += plan.radius[k];
    }
    EXPECT_NEAR(variance, sigma * sigma, 0.1 * sigma * sigma + 0.5) << "sigma " << sigma;
    EXPECT_EQ(plan.total_radius, total);
    EXPECT_FLOAT_EQ(plan.scale, static_cast<float>(1.0 / product));
    EXPECT_EQ(plan.offsets[0], total) << "read 0 leads on every box";
    EXPECT_EQ(plan.offsets[kBoxStackReads - 1], -total - kBoxes) << "the last read lags on every box";
    const std::vector<double> weights = box_stack_weights(plan);
    ASSERT_EQ(weights.size(), static_cast<std::size_t>(2 * total + 1));
    double sum = 0.0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      sum += weights[i];
      EXPECT_NEAR(weights[i], weights[weights.size() - 1 - i], 1e-15) << "symmetric";
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
}

// Three boxes of radius 1 by hand: (1 1 1)^3 = 1 3 6 7 6 3 1, over 27.
TEST(BoxStackPlan, ThreeUnitBoxesByHand) {
  BoxStackPlan plan{};
  for (int k = 0; k < kBoxes; ++k) plan.radius[k] = 1;
  plan.total_radius = kBoxes;
  const std::vector<double> weights = box_stack_weights(plan);
  if (kBoxes != 3) GTEST_SKIP() << "the hand-made case is for three boxes";
  const double expected[] = {1, 3, 6, 7, 6, 3, 1};
  ASSERT_EQ(weights.size(), 7u);
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(weights[static_cast<std::size_t>(i)], expected[i] / 27.0, 1e-15);
}

// Border modes written out again, independently of the kernels' and the reference's.
int bordered(BorderMode mode, int i, int n) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case BorderMode::Constant: return -1;
    case BorderMode::Replicate: return i < 0 ? 0 : n - 1;
    case BorderMode::Wrap: return ((i % n) + n) % n;
    case BorderMode::Reflect: {
      while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
      return i;
    }
    case BorderMode::Reflect101: {
      if (n == 1) return 0;
      while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
      return i;
    }
  }
  return -1;
}

// The kernels' walk for one line and one segment [begin, end): sums from zero at
// begin - 2R, rows before begin - R read as zero.
std::vector<double> walk(const std::vector<float>& line, const BoxStackPlan& plan, BorderMode mode, float constant,
                         int begin, int end) {
  const int n = static_cast<int>(line.size());
  const int reach = plan.total_radius;
  BoxStackSums<float> sums;
  sums.clear();
  std::vector<double> out;
  for (int y = begin - 2 * reach; y < end; ++y) {
    float x[kBoxStackReads];
    for (int i = 0; i < kBoxStackReads; ++i) {
      const int q = y + plan.offsets[i];
      const int at = bordered(mode, q, n);
      x[i] = q < begin - reach ? 0.0f : at < 0 ? constant : line[static_cast<std::size_t>(at)];
    }
    const float value = sums.step(x) * plan.scale;
    if (y >= begin) out.push_back(value);
  }
  return out;
}

TEST(BoxStackPlan, RunningSumWalkIsTheStackOnEveryBorderAndSegment) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> value(0.0f, 255.0f);
  for (double sigma : {3.0, 7.3, 30.0})
    for (int n : {1, 5, 40, 333}) {
      std::vector<float> line(static_cast<std::size_t>(n));
      for (float& v : line) v = value(random);
      const BoxStackPlan plan = box_stack_plan(gaussian_weights(sigma, 0));
      const std::vector<double> weights = box_stack_weights(plan);
      const int reach = plan.total_radius;
      for (BorderMode mode : all_border_modes())
        for (int segment : {32, 96, 512}) {
          for (int begin = 0; begin < n; begin += segment) {
            const int end = std::min(n, begin + segment);
            const std::vector<double> got = walk(line, plan, mode, 77.0f, begin, end);
            ASSERT_EQ(got.size(), static_cast<std::size_t>(end - begin));
            for (int y = begin; y < end; ++y) {
              double expected = 0.0;
              for (int k = -reach; k <= reach; ++k) {
                const int at = bordered(mode, y + k, n);
                expected += weights[static_cast<std::size_t>(k + reach)] *
                            (at < 0 ? 77.0 : static_cast<double>(line[static_cast<std::size_t>(at)]));
              }
              // Float running sums over 4R + segment steps: relative drift far below a level.
              ASSERT_NEAR(got[static_cast<std::size_t>(y - begin)], expected, 2e-3)
                  << "sigma " << sigma << " n " << n << " border " << to_string(mode) << " segment " << segment
                  << " y " << y;
            }
          }
        }
    }
}

}  // namespace
}  // namespace gpufilter::box_stack_plan_test
