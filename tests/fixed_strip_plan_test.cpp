// How the 8-bit register-window kernels cut rows into strips (fixed_strip_plan.hpp):
// strips cover the image, stay within their length bounds, and fill the waves.
#include <gtest/gtest.h>

#include <initializer_list>

#include "convolution/fixed_strip_plan.hpp"

namespace gpufilter::kernels::fixed_strip_plan_test {
namespace {

long long ceil_div(long long n, long long d) { return (n + d - 1) / d; }

// The share of the waves' block slots a grid of columns x strips blocks fills.
double filled(long long columns, int strips, long long resident) {
  const long long blocks = columns * strips;
  return static_cast<double>(blocks) / static_cast<double>(ceil_div(blocks, resident) * resident);
}

TEST(FixedStripPlan, CoversTheImageWithinTheBounds) {
  for (long long columns : {1LL, 7LL, 8LL, 30LL, 1000LL, 100000LL})
    for (int height : {1, 2, 15, 16, 17, 33, 1080, 4320, 100000})
      for (long long resident : {0LL, 1LL, 660LL, 924LL, 1056LL}) {
        const StripPlan plan = fixed_strip_plan(columns, height, resident, 16, 64);
        EXPECT_GE(plan.rows, 1);
        EXPECT_LE(plan.rows, 64);
        EXPECT_EQ(plan.strips, ceil_div(height, plan.rows)) << columns << " " << height << " " << resident;
        EXPECT_LT(static_cast<long long>(plan.strips - 1) * plan.rows, height) << "no empty strip";
        if (height >= 16) {
          EXPECT_GE(plan.rows, 8) << "strips about min_rows long or longer";
        }
      }
}

TEST(FixedStripPlan, FillsTheLastWave) {
  // 8K gray Sobel: 8 block columns, 1056 resident blocks: one wave of 33-row strips
  // instead of 135 strips of 32 rows (1.02 waves).
  const StripPlan gray = fixed_strip_plan(8, 4320, 1056, 16, 64);
  EXPECT_EQ(gray.rows, 33);
  EXPECT_LE(8LL * gray.strips, 1056);
  EXPECT_GT(8LL * gray.strips, 1000);
  // 8K RGBA blur: 30 columns, 924 resident: three full waves.
  const StripPlan rgba = fixed_strip_plan(30, 4320, 924, 16, 64);
  EXPECT_LE(30LL * rgba.strips, 3 * 924);
  EXPECT_GT(30LL * rgba.strips, 3 * 924 - 30);
}

TEST(FixedStripPlan, FixedLength) {
  EXPECT_EQ(fixed_strips(4320, 32).strips, 135);
  EXPECT_EQ(fixed_strips(33, 32).strips, 2);
  EXPECT_EQ(fixed_strips(1, 32).strips, 1);
}

// Strips of whole steps (the separable strip kernel): within 1 to max_steps steps, covering
// the image, and no emptier last wave than any other step count allows (within 1%).
TEST(StepStripPlan, WholeStepsThatFillTheLastWave) {
  for (long long columns : {1LL, 12LL, 35LL, 1000LL})
    for (int height : {1, 7, 8, 9, 33, 1080, 4320})
      for (long long resident : {0LL, 1LL, 528LL, 1056LL}) {
        const StripPlan plan = step_strip_plan(columns, height, resident, {8, 4, 0.01});
        EXPECT_EQ(plan.rows % 8, 0);
        EXPECT_GE(plan.rows, 8);
        EXPECT_LE(plan.rows, 32);
        EXPECT_EQ(plan.strips, ceil_div(height, plan.rows));
        const long long slots = resident < 1 ? 1 : resident;
        for (int steps = 1; steps <= 4; ++steps)
          EXPECT_GE(filled(columns, plan.strips, slots) + 0.01,
                    filled(columns, static_cast<int>(ceil_div(ceil_div(height, 8), steps)), slots))
              << columns << " columns, height " << height << ", " << resident << " resident, " << steps << " steps";
      }
  // 8K gray on element columns: 12 bands, 528 resident blocks; strips of 4 steps would make
  // 1620 blocks (3.07 waves), of one step 6480 (12.3 waves).
  EXPECT_EQ(step_strip_plan(12, 4320, 528, {8, 4, 0.01}).rows, 8);
  // 8K RGBA: 35 bands fill their waves as well with 4 steps (4725 blocks, 8.95 waves).
  EXPECT_EQ(step_strip_plan(35, 4320, 528, {8, 4, 0.01}).rows, 32);
}

// A least step count (the column walk: strips of 32 to 64 rows in steps of 4): the plan
// stays within the bounds and no allowed count fills the waves more than 1% better.
TEST(StepStripPlan, LeastStepsAndTheBestFillBetween) {
  const StepStrips walk{4, 16, 0.01, 8};
  for (long long columns : {1LL, 16LL, 32LL, 1000LL})
    for (int height : {1, 5, 31, 33, 67, 1080, 2160, 4320})
      for (long long resident : {1LL, 528LL, 792LL, 1056LL}) {
        const StripPlan plan = step_strip_plan(columns, height, resident, walk);
        EXPECT_EQ(plan.rows % 4, 0);
        EXPECT_GE(plan.rows, 32);
        EXPECT_LE(plan.rows, 64);
        EXPECT_EQ(plan.strips, ceil_div(height, plan.rows));
        for (int steps = 8; steps <= 16; ++steps)
          EXPECT_GE(filled(columns, plan.strips, resident) + 0.01,
                    filled(columns, static_cast<int>(ceil_div(ceil_div(height, 4), steps)), resident))
              << columns << " columns, height " << height << ", " << resident << " resident, " << steps << " steps";
      }
  // 8K, 32 block columns: 44-row strips make 3168 blocks, whole waves of 528, 792 and 1056
  // resident blocks (4, 6 and 8 an SM); 4K 16-bit gray, 16 columns at 792: 48-row strips
  // make 720 blocks, 91% of one wave.
  for (long long resident : {528LL, 792LL, 1056LL}) EXPECT_EQ(step_strip_plan(32, 4320, resident, walk).rows, 44);
  EXPECT_EQ(step_strip_plan(16, 2160, 792, walk).rows, 48);
  // Under a wave (the walk's GPU test of 4 bands by 301 rows): the most blocks within 1%
  // of the slots, 9 strips of 36 rows at 792 resident, 8 of 40 at 1056.
  EXPECT_EQ(step_strip_plan(4, 301, 792, walk).rows, 36);
  EXPECT_EQ(step_strip_plan(4, 301, 1056, walk).rows, 40);
  // A count outside the bounds is read as the nearest inside them.
  EXPECT_EQ(step_strip_plan(32, 4320, 528, {8, 4, 0.01, 9}).rows, 32);
}

}  // namespace
}  // namespace gpufilter::kernels::fixed_strip_plan_test
