// The decimated Gaussian's plan (decimated_plan.hpp).
#include "convolution/decimated_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "common/recent_plans.hpp"
#include "convolution/box_stack_plan.hpp"

namespace gpufilter::kernels {
namespace {

using Tuning = DecimatedTuning;

double gaussian(double offset, double sigma) { return std::exp(-offset * offset / (2.0 * sigma * sigma)); }

// Normalises weights (double) into floats summing to 1.
std::vector<float> normalised(const std::vector<double>& weights) {
  double sum = 0.0;
  for (double w : weights) sum += w;
  std::vector<float> out;
  out.reserve(weights.size());
  for (double w : weights) out.push_back(static_cast<float>(w / sum));
  return out;
}

}  // namespace

DecimatedAxis decimated_axis(const std::vector<float>& factor) {
  const double variance = box_stack_factor_variance(factor);
  // The factor's own variance (a Gaussian truncated at 3 sigma keeps 97.3% of sigma^2):
  // matching it, not sigma^2, keeps the chain on the mask the reference applies.
  const double sigma = std::sqrt(variance);
  DecimatedAxis axis;
  const int h = std::clamp(static_cast<int>(Tuning::kFactorPerSigma * sigma), 2, Tuning::kMaxFactor);
  axis.factor = h;
  const double s = Tuning::kSigmaPerFactor * h;
  const double cut = Tuning::kCutSigmas * s;
  const double centre = (h - 1) / 2.0;

  // Down: offsets t - reach - centre for t < 2 reach + h, symmetric about the centre.
  axis.down_reach = std::max(0, static_cast<int>(std::ceil(cut - centre)));
  axis.down_taps = 2 * axis.down_reach + h;
  std::vector<double> down;
  double down_variance = 0.0, down_sum = 0.0;
  for (int t = 0; t < axis.down_taps; ++t) {
    const double offset = t - axis.down_reach - centre;
    down.push_back(gaussian(offset, s));
    down_sum += down.back();
    down_variance += down.back() * offset * offset;
  }
  down_variance /= down_sum;
  axis.down = normalised(down);
  axis.down.resize(static_cast<std::size_t>(Tuning::kDownSteps * h), 0.0f);

  // Up: output p = h m + q reads low-res samples m + up_first + k, centred at
  // h (m + up_first + k) + centre; every k that some phase q reaches within the cut.
  int first = 0, last = 0;
  bool any = false;
  for (int k = -Tuning::kUpTaps; k <= Tuning::kUpTaps; ++k)
    for (int q = 0; q < h; ++q)
      if (std::fabs(q - h * k - centre) <= cut) {
        if (!any) first = k;
        last = k;
        any = true;
      }
  axis.up_first = first;
  axis.up.assign(static_cast<std::size_t>(h * Tuning::kUpTaps), 0.0f);
  for (int q = 0; q < h; ++q) {
    std::vector<double> row;
    for (int k = 0; k <= last - first; ++k) {
      const double offset = q - h * (first + k) - centre;
      row.push_back(std::fabs(offset) <= cut ? gaussian(offset, s) : 0.0);
    }
    const std::vector<float> w = normalised(row);
    std::copy(w.begin(), w.end(), axis.up.begin() + static_cast<std::ptrdiff_t>(q * Tuning::kUpTaps));
  }

  // Residual: the variance left, in low-res pixels.
  const double left = std::max(0.0, variance - down_variance - s * s);
  const double residual_sigma = std::sqrt(left) / h;
  if (residual_sigma < Tuning::kMinResidualSigma) {
    axis.residual_reach = 0;
    axis.residual = {1.0f};
  } else {
    axis.residual_reach = std::min(static_cast<int>(std::ceil(Tuning::kCutSigmas * residual_sigma)),
                                   Tuning::kMaxResidualTaps / 2);
    std::vector<double> residual;
    for (int j = -axis.residual_reach; j <= axis.residual_reach; ++j) residual.push_back(gaussian(j, residual_sigma));
    axis.residual = normalised(residual);
  }
  return axis;
}

DecimatedAxis cached_decimated_axis(const std::vector<float>& factor) {
  static RecentPlans<DecimatedAxis> plans;
  return plans.get(factor, [](const std::vector<float>& f) { return decimated_axis(f); });
}

DecimatedExtent decimated_extent(const DecimatedAxis& axis, int length) {
  const int positions = (length - 1) / axis.factor + 1;  // m = p / h for p < length
  DecimatedExtent e;
  e.residual_count = positions + Tuning::kUpTaps - 1;
  e.down_first = axis.up_first - axis.residual_reach;
  e.down_count = e.residual_count + 2 * axis.residual_reach;
  return e;
}

int decimated_down_steps(const DecimatedAxis& axis) { return (axis.down_taps + axis.factor - 1) / axis.factor; }

std::vector<double> decimated_weights(const DecimatedAxis& axis, int p, int* reach) {
  const int h = axis.factor;
  const int m = p / h, q = p % h;
  // Input position r gets weight up * residual * down summed over the paths to p.
  const int lowest = h * (m + axis.up_first - axis.residual_reach) - axis.down_reach;
  const int highest =
      h * (m + axis.up_first + Tuning::kUpTaps - 1 + axis.residual_reach) - axis.down_reach + axis.down_taps - 1;
  const int r = std::max(p - lowest, highest - p);
  std::vector<double> weights(static_cast<std::size_t>(2 * r + 1), 0.0);
  const int residual_taps = static_cast<int>(axis.residual.size());
  for (int k = 0; k < Tuning::kUpTaps; ++k) {
    const double up = axis.up[static_cast<std::size_t>(q * Tuning::kUpTaps + k)];
    if (up == 0.0) continue;
    for (int j = 0; j < residual_taps; ++j) {
      const int i = m + axis.up_first + k + j - axis.residual_reach;
      const double path = up * axis.residual[static_cast<std::size_t>(j)];
      for (int t = 0; t < axis.down_taps; ++t)
        weights[static_cast<std::size_t>(h * i + t - axis.down_reach - p + r)] +=
            path * axis.down[static_cast<std::size_t>(t)];
    }
  }
  *reach = r;
  return weights;
}

double decimated_step_error(const DecimatedAxis& axis, const std::vector<float>& factor) {
  const int fr = static_cast<int>(factor.size()) / 2;
  double worst = 0.0;
  // Phases of p: positions far from 0 so every index is non-negative.
  const int base = axis.factor * (Tuning::kUpTaps + axis.residual_reach + 4) + fr;
  for (int p = base; p < base + axis.factor; ++p) {
    int r = 0;
    const std::vector<double> w = decimated_weights(axis, p, &r);
    const int reach = std::max(r, fr);
    double step = 0.0;
    for (int o = -reach; o <= reach; ++o) {
      const double ours = std::abs(o) <= r ? w[static_cast<std::size_t>(o + r)] : 0.0;
      const double theirs = std::abs(o) <= fr ? factor[static_cast<std::size_t>(o + fr)] : 0.0;
      step += ours - theirs;
      worst = std::max(worst, std::fabs(step));
    }
  }
  return worst;
}

int decimated_down_segment(int steps, long long blocks_across, long long slots) {
  // At sigma 30 on 8K a floor of 24 rows left a third of an H100 idle (0.68 waves).
  slots = std::max<long long>(1, slots);
  blocks_across = std::max<long long>(1, blocks_across);
  steps = std::max(1, steps);
  int best = steps;
  long long best_cost = -1;
  for (int segment = std::min(steps, DecimatedTuning::kMinDownSegment); segment <= steps; ++segment) {
    const long long bands = (steps + segment - 1) / segment;
    const long long waves = (blocks_across * bands + slots - 1) / slots;
    const long long cost = waves * (segment + DecimatedTuning::kDownSegmentEnds);
    if (best_cost < 0 || cost <= best_cost) {  // on a tie, fewer segments (less to hand on)
      best_cost = cost;
      best = segment;
    }
  }
  return best;
}

}  // namespace gpufilter::kernels
