#include "convolution/fixed_strip_plan.hpp"

#include <algorithm>

namespace gpufilter::kernels {
namespace {

long long ceil_div(long long n, long long d) { return (n + d - 1) / d; }

}  // namespace

StripPlan fixed_strips(int height, int rows) {
  StripPlan plan;
  plan.rows = std::max(1, rows);
  plan.strips = static_cast<int>(std::max(1LL, ceil_div(height, plan.rows)));
  return plan;
}

StripPlan fixed_strip_plan(long long columns, int height, long long resident, int min_rows, int max_rows) {
  if (height < 1) return fixed_strips(1, 1);
  columns = std::max(1LL, columns);
  resident = std::max(1LL, resident);
  max_rows = std::max(1, max_rows);
  min_rows = std::clamp(min_rows, 1, max_rows);
  const long long fewest = ceil_div(height, max_rows);   // strips at the longest length
  const long long most = ceil_div(height, min_rows);     // strips at the shortest length
  const long long waves = ceil_div(columns * fewest, resident);
  const long long fit = waves * resident / columns;      // strips the waves hold
  const long long strips = std::max(fewest, std::min(most, fit));
  return fixed_strips(height, static_cast<int>(ceil_div(height, strips)));
}

StripPlan step_strip_plan(long long columns, int height, long long resident, const StepStrips& steps_a_strip) {
  columns = std::max(1LL, columns);
  resident = std::max(1LL, resident);
  const int step_rows = std::max(1, steps_a_strip.step_rows);
  const int max_steps = std::max(1, steps_a_strip.max_steps);
  const int min_steps = std::clamp(steps_a_strip.min_steps, 1, max_steps);
  const long long steps = ceil_div(std::max(1, height), step_rows);
  // The share of the waves' block slots the grid fills, for strips of s steps.
  const auto filled = [&](int s) {
    const long long blocks = columns * ceil_div(steps, s);
    return static_cast<double>(blocks) / static_cast<double>(ceil_div(blocks, resident) * resident);
  };
  double best = 0.0;
  for (int s = min_steps; s <= max_steps; ++s) best = std::max(best, filled(s));
  int chosen = min_steps;
  for (int s = max_steps; s >= min_steps; --s)
    if (filled(s) >= best - steps_a_strip.longer_within) {
      chosen = s;
      break;
    }
  return fixed_strips(height, chosen * step_rows);
}

}  // namespace gpufilter::kernels
