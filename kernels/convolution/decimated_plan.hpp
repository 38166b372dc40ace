#pragma once
// The decimated Gaussian's plan, as plain C++ shared by the kernels' launcher and the
// CPU tests. Along each axis the Gaussian of variance v becomes three Gaussians whose
// variances add up to v:
//  - down: a Gaussian of sigma s = DecimatedTuning::kSigmaPerFactor * h sampled at every
//    h-th position: low-res sample i sums the input around the centre h*i + (h-1)/2;
//  - residual: what is left of v, applied to the low-res samples (1/h of them);
//  - up: each output pixel p a Gaussian-weighted sum (sigma s) of the low-res samples
//    around it, weights normalised per phase p % h.
// The low-res signal is smooth enough after the down Gaussian that its samples lose
// nothing visible (aliasing below 1e-3 of the range), and the up weights interpolate it
// without a visible grid. Every stage is separable, so the 2-D filter is the product of
// the two axes' 1-D filters (decimated_weights).
#include <vector>

#include "convolution/decimated_tuning.hpp"

namespace gpufilter::kernels {

struct DecimatedAxis {
  int factor = 2;        // h
  // Down: low-res sample i = sum_t down[t] * x[h*i + t - down_reach], t < down_taps.
  int down_reach = 0;
  int down_taps = 0;
  std::vector<float> down;  // padded with zeros to kDownSteps * h
  // Residual: r[i] = sum_j residual[j] * d[i + j - residual_reach].
  int residual_reach = 0;
  std::vector<float> residual;  // 2 * residual_reach + 1
  // Up: y[p] = sum_k up[(p % h) * kUpTaps + k] * r[p / h + up_first + k].
  int up_first = 0;
  std::vector<float> up;  // h * kUpTaps
};

// The low-res index ranges one axis of length n needs: the residual's output r at
// indices [up_first, up_first + residual_count) and the down pass's output d at
// [down_first, down_first + down_count).
struct DecimatedExtent {
  int residual_count;
  int down_first;
  int down_count;
};

// The plan for one axis of a sampled Gaussian `factor` (odd length, centred, summing
// to 1, of variance at least 9: sigma 3). Throws nothing; expects such a factor.
DecimatedAxis decimated_axis(const std::vector<float>& factor);
// decimated_axis() as the launcher calls it: the last few factors' plans are kept.
DecimatedAxis cached_decimated_axis(const std::vector<float>& factor);
DecimatedExtent decimated_extent(const DecimatedAxis& axis, int length);
// The low-res rows one input row feeds: the down taps in steps of h rows (at most
// DecimatedTuning::kDownSteps; one less from h = 10, sigma 13.5, on).
int decimated_down_steps(const DecimatedAxis& axis);

// The down pass's segment: the steps of h input rows a block of its grid walks, for
// `steps` of them (DownSegments::steps), `blocks_across` blocks side by side and `slots`
// blocks the GPU holds at once: the length (at least kMinDownSegment, or all steps) with
// the least modelled time, waves of blocks times the steps each block walks plus
// DecimatedTuning::kDownSegmentEnds.
int decimated_down_segment(int steps, long long blocks_across, long long slots);

// The whole chain as one 1-D filter for output position p (p >= 0): weights[r] for
// input positions p - reach .. p + reach, reach returned; for tests and error bounds.
std::vector<double> decimated_weights(const DecimatedAxis& axis, int p, int* reach);
// The largest |step response difference| between the chain and `factor` over every
// phase: an upper bound, as a fraction of the range, on the error at a straight edge
// between two flat areas.
double decimated_step_error(const DecimatedAxis& axis, const std::vector<float>& factor);

}  // namespace gpufilter::kernels
