#pragma once
/// @file
/// A neighbourhood filter as data: one or two masks applied at every pixel, and the
/// rule that turns the masks' sums into the output pixel. Every convolution op (blur,
/// box, sharpen, edge, emboss, convolve) is built as a FilterSpec; the GPU kernels and
/// the CPU reference each evaluate it in their own code. The functions here are plain
/// computations on the host: they touch no GPU and never synchronize.
#include <string>
#include <vector>

namespace gpufilter {

/// How a 4-channel image's alpha takes part. Other channel counts have no alpha.
enum class AlphaMode {
  Premultiply,  ///< colours are weighted by alpha before filtering and divided by the
                ///< filtered alpha after (no dark fringes at transparent edges)
  Separate,     ///< every channel filtered on its own, alpha included
  Keep,         ///< colours filtered on their own; alpha copied from the input pixel
};
const char* to_string(AlphaMode mode);  ///< "premultiply", "separate" or "keep"; does not throw
/// "premultiply", "separate" or "keep"; throws Error(InvalidArgument) otherwise.
AlphaMode alpha_mode_from_name(const std::string& name);

/// How close to the exact filter a run must come. `Exact` (the default, on every device):
/// within 1 level of 8 bits (257 on u16, 1/255 on f32) of the CPU reference, what
/// `--device cpu` gives. `Fast` lets `FilterVariant::Auto` pick a kernel that approximates
/// the filter at a lower cost where one exists: for Gaussians of sigma 4.02 and more,
/// `decimated` (within 2 levels on u8, 0.8% of the range on u16 and f32, corners and
/// constant borders included). A variant named explicitly runs as named, whatever the
/// accuracy (`box_stack`: within 6 levels, 2.4%, where edges meet).
enum class Accuracy { Exact, Fast };
const char* to_string(Accuracy accuracy);  ///< "exact" or "fast"; does not throw
/// "exact" or "fast"; throws Error(InvalidArgument) otherwise.
Accuracy accuracy_from_name(const std::string& name);

/// A mask of odd width and height, centred on the output pixel. It is applied as a
/// correlation, as cv::filter2D does (not flipped): tap (i, j) weighs the input at
/// (x + i - width/2, y + j - height/2).
struct Mask {
  int width = 1;               ///< taps across, odd
  int height = 1;              ///< taps down, odd
  std::vector<float> weights;  ///< width * height, row-major

  /// The weight of tap (i, j): column i, row j.
  float at(int i, int j) const { return weights[static_cast<std::size_t>(j) * width + i]; }
};

/// A rank-1 mask written as the outer product of a column and a row: w(i, j) = y[j] * x[i].
struct SeparableMask {
  std::vector<float> x;  ///< width taps
  std::vector<float> y;  ///< height taps
};

/// The rule that turns the masks' sums into the output pixel.
enum class FilterOutput {
  Linear,     ///< out = sum + bias * range
  Unsharp,    ///< d = centre - sum; out = centre + amount * d where |d| > threshold, else centre
  Magnitude,  ///< two masks: out = sqrt(sum0^2 + sum1^2)
};

/// A filter as data: its masks, the output rule and its parameters, the alpha mode.
struct FilterSpec {
  std::vector<Mask> masks;                  ///< one, or two for Magnitude; all of one size
  std::vector<SeparableMask> separable;     ///< the same masks as rank-1 factors, where they are
  FilterOutput output = FilterOutput::Linear;  ///< how the sums become the output
  double bias = 0.0;       ///< Linear, as a fraction of the channel's range (0.5: mid-grey)
  double amount = 1.0;     ///< Unsharp
  double threshold = 0.0;  ///< Unsharp, as a fraction of the channel's range (1.0 for f32)
  AlphaMode alpha = AlphaMode::Separate;  ///< how a 4-channel image's alpha takes part
  /// Every mask is non-negative and sums to 1 and the output is Linear with no bias, so
  /// outputs stay within the inputs' range and need no clamping.
  bool convex = false;
  /// The mask is a sampled Gaussian (blur): variants that approximate a Gaussian from its
  /// variance instead of applying the taps (box_stack) may run it.
  bool gaussian = false;
  /// Whether Auto may approximate the filter (Accuracy::Fast) or must apply it exactly.
  Accuracy accuracy = Accuracy::Exact;

  /// The masks' width (1 without masks).
  int width() const { return masks.empty() ? 1 : masks.front().width; }
  /// The masks' height (1 without masks).
  int height() const { return masks.empty() ? 1 : masks.front().height; }
  /// Whether every mask has its rank-1 factors in `separable`.
  bool is_separable() const { return !separable.empty() && separable.size() == masks.size(); }
};

/// Premultiplied colours are divided by the filtered alpha only where it exceeds this
/// fraction of the channel's range; below it the colour is 0 (fully transparent).
constexpr double kMinUnpremultiplyAlpha = 1e-3;

/// The rank-1 factors of `mask`, or an empty SeparableMask (x and y empty) where the
/// mask is not rank 1 within float rounding. Expects weights.size() == width * height
/// (validate() checks it); throws no Error.
SeparableMask separate(const Mask& mask);
/// Checks sizes (odd, positive, equal across masks), counts and finite weights; throws
/// Error(InvalidArgument) naming `op`.
void validate(const FilterSpec& spec, const std::string& op);

}  // namespace gpufilter
