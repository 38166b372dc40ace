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

}  // namespace gpufilter::kernels
