#pragma once
// The stacked-box approximation of a Gaussian, as plain C++ shared by the kernels and
// the CPU tests: which box radii stand in for a sampled Gaussian, and the running-sum
// recurrence one thread walks down a line.
//
// K boxes of radii r_1..r_K applied one after the other are one filter of radius
// R = r_1 + ... + r_K. Walking down a line, box k's sum at y changes by its input at
// y + r_k minus its input at y - r_k - 1, so the last box needs the one before it at two
// places, each of those the one before at two places, and so on: 2^K running sums of
// the input read at 2^K offsets (BoxStackPlan::offsets) feed 2^(K-1) sums of the first
// box, which feed 2^(K-2) of the second, down to the one sum of the last. Registers
// hold the whole state; no delay line is needed.
#include <cstddef>
#include <vector>

#include "common/host_device.hpp"
#include "convolution/box_stack_tuning.hpp"

namespace gpufilter::kernels {

constexpr int kBoxStackReads = 1 << BoxStackTuning::kBoxes;

struct BoxStackPlan {
  int radius[BoxStackTuning::kBoxes];  // of each box
  int total_radius;                    // R: the stack's reach on each side
  // Where the 2^K reads sit relative to the output's position: read i takes, for box
  // k (bit k-1 of i), +r_k (bit 0) or -(r_k + 1) (bit 1).
  int offsets[kBoxStackReads];
  float scale;  // 1 / prod(2 r_k + 1): the running sums hold unnormalised sums
};

// One axis's walk down its lines (box_stack_walk.cuh): the read offsets and scale of a
// plan, and the length of the segments the lines are cut into.
struct BoxStackWalkArgs {
  int offsets[kBoxStackReads];
  long long offset_bytes[kBoxStackReads];  // offsets times the pitch of the image walked
  int lowest_offset;   // the smallest of offsets, -(R + K)
  int highest_offset;  // the largest, +R
  float scale;         // the plan's normalisation times the caller's scale
  int total_radius;    // R
  int segment_rows;
};

// The plan for one axis of a sampled Gaussian `factor` (odd length, centred, summing to
// 1): integer box radii whose stack has about the factor's variance, chosen among the
// few such stacks as the one whose step response (running sum) strays least from the
// factor's. Throws nothing; expects a non-empty factor.
BoxStackPlan box_stack_plan(const std::vector<float>& factor);
// The walk of `plan` down an image of `pitch` bytes a row in segments of
// `segment_rows`, its sums multiplied by `scale` on the way out (into or out of a
// scratch image's units).
BoxStackWalkArgs box_stack_walk_args(const BoxStackPlan& plan, float scale, int segment_rows, std::size_t pitch);
// box_stack_plan() as the kernels' launchers call it: plans cost tens of microseconds of
// host time (a few candidate stacks each), so the last few factors' plans are kept.
BoxStackPlan cached_box_stack_plan(const std::vector<float>& factor);
// The variance of a 1-D mask (weights over offsets -r..r), normalised by its sum.
double box_stack_factor_variance(const std::vector<float>& factor);
// The stack of `plan` as one 1-D filter (2R + 1 weights), for tests and error bounds.
std::vector<double> box_stack_weights(const BoxStackPlan& plan);
// The largest |step response difference| between `plan` and `factor`: an upper bound,
// as a fraction of the range, on the error at a straight edge between two flat areas.
double box_stack_step_error(const BoxStackPlan& plan, const std::vector<float>& factor);

// The running sums of one line (one channel), advanced one position per step. Every
// index is a compile-time constant once the loops unroll, so the sums stay in registers.
template <class V>
struct BoxStackSums {
  static constexpr int kBoxes = BoxStackTuning::kBoxes;
  V sum[kBoxStackReads - 1];  // box 1's 2^(K-1) sums, then box 2's, ..., the last box's one

  GPUFILTER_HD void clear() {
    GPUFILTER_UNROLL
    for (int i = 0; i < kBoxStackReads - 1; ++i) sum[i] = V(0);
  }
  // Moves to the next position given the input at y + offsets[i] for each read i, and
  // returns the last box's (unnormalised) sum there.
  GPUFILTER_HD V step(const V (&x)[kBoxStackReads]) {
    GPUFILTER_UNROLL
    for (int i = 0; i < kBoxStackReads / 2; ++i) sum[i] += x[2 * i] - x[2 * i + 1];
    return combine<1, kBoxStackReads / 4, 0, kBoxStackReads / 2>();
  }

 private:
  // Box `Box` (0-based) has `Count` sums at `Base`, fed by box Box-1's at `Previous`.
  template <int Box, int Count, int Previous, int Base>
  GPUFILTER_HD V combine() {
    if constexpr (Box == kBoxes) {
      return sum[Previous];
    } else {
      GPUFILTER_UNROLL
      for (int i = 0; i < Count; ++i) sum[Base + i] += sum[Previous + 2 * i] - sum[Previous + 2 * i + 1];
      return combine<Box + 1, Count / 2, Base, Base + Count>();
    }
  }
};

}  // namespace gpufilter::kernels
