// Choosing the box radii of a stacked-box Gaussian (box_stack_plan.hpp).
#include "convolution/box_stack_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "common/recent_plans.hpp"

namespace gpufilter::kernels {
namespace {

constexpr int K = BoxStackTuning::kBoxes;

BoxStackPlan make_plan(const int (&radius)[K]) {
  BoxStackPlan plan{};
  double width_product = 1.0;
  plan.total_radius = 0;
  for (int k = 0; k < K; ++k) {
    plan.radius[k] = radius[k];
    plan.total_radius += radius[k];
    width_product *= 2.0 * radius[k] + 1.0;
  }
  for (int i = 0; i < kBoxStackReads; ++i) {
    int offset = 0;
    for (int k = 0; k < K; ++k) offset += (i >> k) & 1 ? -(radius[k] + 1) : radius[k];
    plan.offsets[i] = offset;
  }
  plan.scale = static_cast<float>(1.0 / width_product);
  return plan;
}

// Calls f(radii) for every non-decreasing choice of K radii from [low, high].
template <class F>
void for_each_stack(int low, int high, int (&radius)[K], int k, F&& f) {
  if (k == K) {
    f(radius);
    return;
  }
  for (int r = k == 0 ? low : radius[k - 1]; r <= high; ++r) {
    radius[k] = r;
    for_each_stack(low, high, radius, k + 1, f);
  }
}

}  // namespace

double box_stack_factor_variance(const std::vector<float>& factor) {
  const int r = static_cast<int>(factor.size()) / 2;
  double sum = 0.0, moment = 0.0;
  for (int i = -r; i <= r; ++i) {
    const double w = factor[static_cast<std::size_t>(i + r)];
    sum += w;
    moment += w * i * i;
  }
  return sum > 0.0 ? moment / sum : 0.0;
}

std::vector<double> box_stack_weights(const BoxStackPlan& plan) {
  std::vector<double> weights{1.0};
  for (int k = 0; k < K; ++k) {
    const int width = 2 * plan.radius[k] + 1;
    std::vector<double> next(weights.size() + static_cast<std::size_t>(width) - 1, 0.0);
    // A box as a running sum over the previous weights: O(n) per box.
    double running = 0.0;
    for (std::size_t i = 0; i < next.size(); ++i) {
      if (i < weights.size()) running += weights[i];
      if (i >= static_cast<std::size_t>(width)) running -= weights[i - static_cast<std::size_t>(width)];
      next[i] = running / width;
    }
    weights.swap(next);
  }
  return weights;
}

double box_stack_step_error(const BoxStackPlan& plan, const std::vector<float>& factor) {
  const std::vector<double> box = box_stack_weights(plan);
  const int rb = static_cast<int>(box.size()) / 2, rf = static_cast<int>(factor.size()) / 2;
  const int r = std::max(rb, rf);
  double cumulative_box = 0.0, cumulative_factor = 0.0, worst = 0.0;
  for (int i = -r; i <= r; ++i) {
    if (i >= -rb && i <= rb) cumulative_box += box[static_cast<std::size_t>(i + rb)];
    if (i >= -rf && i <= rf) cumulative_factor += factor[static_cast<std::size_t>(i + rf)];
    worst = std::max(worst, std::fabs(cumulative_box - cumulative_factor));
  }
  return worst;
}

BoxStackPlan box_stack_plan(const std::vector<float>& factor) {
  // Box k of radius r has variance r(r+1)/3; K equal boxes of the factor's variance v
  // have r = (sqrt(12v/K + 1) - 1) / 2. Integer radii around it, within 10% of the
  // variance, are the candidates (at most 20 for K = 3).
  const double v = box_stack_factor_variance(factor);
  const int ideal = static_cast<int>(std::floor((std::sqrt(12.0 * v / K + 1.0) - 1.0) / 2.0));
  int radius[K] = {};
  BoxStackPlan best = make_plan(radius);
  double best_error = 2.0;
  for_each_stack(std::max(0, ideal - 1), ideal + 2, radius, 0, [&](const int (&r)[K]) {
    double stack_variance = 0.0;
    for (int k = 0; k < K; ++k) stack_variance += r[k] * (r[k] + 1) / 3.0;
    if (std::fabs(stack_variance - v) > 0.1 * v + 0.5) return;
    const BoxStackPlan candidate = make_plan(r);
    const double error = box_stack_step_error(candidate, factor);
    if (error < best_error) {
      best_error = error;
      best = candidate;
    }
  });
  return best;
}

BoxStackPlan cached_box_stack_plan(const std::vector<float>& factor) {
  static RecentPlans<BoxStackPlan> plans;
  return plans.get(factor, [](const std::vector<float>& f) { return box_stack_plan(f); });
}

BoxStackWalkArgs box_stack_walk_args(const BoxStackPlan& plan, float scale, int segment_rows, std::size_t pitch) {
  BoxStackWalkArgs args{};
  args.lowest_offset = plan.offsets[0];
  args.highest_offset = plan.offsets[0];
  for (int i = 0; i < kBoxStackReads; ++i) {
    args.offsets[i] = plan.offsets[i];
    args.offset_bytes[i] = static_cast<long long>(plan.offsets[i]) * static_cast<long long>(pitch);
    args.lowest_offset = std::min(args.lowest_offset, plan.offsets[i]);
    args.highest_offset = std::max(args.highest_offset, plan.offsets[i]);
  }
  args.scale = plan.scale * scale;
  args.total_radius = plan.total_radius;
  args.segment_rows = segment_rows;
  return args;
}

}  // namespace gpufilter::kernels
