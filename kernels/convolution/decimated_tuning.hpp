#pragma once
// Tuning of the decimated Gaussian (decimated.cu, docs/techniques/convolution.md,
// "Large sigma: decimated").
namespace gpufilter::kernels {

struct DecimatedTuning {
  // The decimation factor h: floor(kFactorPerSigma * sigma), at least 2. The down and up
  // Gaussians have sigma kSigmaPerFactor * h each; what is left of the variance runs at
  // 1/h^2 of the pixels. With these two, the largest step-response error against the
  // truncated Gaussian the reference applies stays within 0.75 levels of 255 from sigma 3
  // to 100 (tests/decimated_plan_test.cpp): the error of an untruncated Gaussian itself
  // is 0.6 of that. Larger factors save little (the down and up passes cost the same per
  // pixel at any h) and lose accuracy fast past 0.8 sigma.
  static constexpr double kFactorPerSigma = 0.75;
  static constexpr double kSigmaPerFactor = 0.7;
  // The down and up Gaussians are cut at this many of their sigmas (a cut at 3 leaves
  // 0.27% of the weight outside, a visible floor under the aliasing the cut lets in).
  static constexpr double kCutSigmas = 3.5;
  // With those, an input row feeds at most kDownSteps low-res rows (the ring of
  // accumulators in the down pass) and an output pixel reads kUpTaps low-res samples on
  // each axis; the plan pads its weights with zeros to these counts.
  static constexpr int kDownSteps = 6;
  static constexpr int kUpTaps = 5;
  // A residual Gaussian narrower than this (in low-res pixels) is skipped: its taps
  // would be all but one zero.
  static constexpr double kMinResidualSigma = 0.3;
  static constexpr int kMaxResidualTaps = 2 * 16 + 1;
  // The largest factor (sigma 100: 75), which bounds the weights the kernels take as
  // arguments (within the 4 KiB a launch passes).
  static constexpr int kMaxFactor = 75;

  // The down pass: blocks of at least kDownColumns columns (more where the taps across
  // reach further), each walking a segment of at least kMinDownSegment steps of h rows
  // (DownSegments: segments shorter than kDownSteps would let a row straddle three).
  // decimated_down_segment fills the GPU with segments, counting each segment's start
  // and end (its first loads, its last rows handed on) as kDownSegmentEnds steps.
  static constexpr int kDownColumns = 512;
  static constexpr int kMinDownSegment = kDownSteps;
  static constexpr int kDownSegmentEnds = 2;
  // The up pass: at least this many low-res rows (h output rows each) a block.
  static constexpr int kMinUpSegment = 4;

  // Auto, where the caller accepts an approximation (Accuracy::Fast), takes decimated where
  // both axes decimate by at least this (sigma from about 4.02): at h = 3 it beats box_stack,
  // at h = 2 it loses, where the low-res image is a quarter of the input in floats, 4x its
  // bytes. Every sigma with the same h costs decimated the same, so the crossover is the
  // factor, not a sigma (docs/techniques/convolution.md, "Large sigma: decimated").
  static constexpr int kAutoMinFactor = 3;
};

}  // namespace gpufilter::kernels
