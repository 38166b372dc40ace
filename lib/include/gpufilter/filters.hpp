#pragma once
/// @file
/// The convolution filters. Each is built as a FilterSpec (filter_spec.hpp),
/// which the *_spec() functions return, so a program can also inspect or reuse the masks.
///
/// Every filter has the shape op(src, dst, params, border, variant, ctx), and for each:
/// - Preconditions: src and dst are non-empty views of device memory, of equal size and
///   format, each naturally aligned (a 4-channel pixel to its full size), at most 2^30
///   pixels wide, not overlapping (a filter cannot run in place); any pitch, sub-views
///   included.
/// - Errors: Error(InvalidArgument) for views or parameters that break these rules (the
///   message names the op, the parameter and the accepted range), Error(UnsupportedFormat)
///   for a channel count other than 1, 3 or 4, Error(Cuda) when a launch fails,
///   Error(OutOfMemory) when separable's two-pass form (a radius above 32, or a tile
///   beyond the GPU's shared memory), box_stack in two passes (sigma above about 75),
///   decimated or the naive variant cannot get its scratch memory. After an error dst is
///   unspecified.
/// - Synchronisation: none. The work is enqueued on ctx.stream and the call returns;
///   it is ordered after the stream's earlier work and before its later work. The
///   variants that read masks from __constant__ memory (constant, tiled, tiled_l2,
///   separable) may also make ctx.stream wait, on the GPU, for earlier filter calls on
///   other streams that used the same mask slot; the host does not wait. Only
///   ExecContext::sync_after_launch (or GPUFILTER_SYNC_LAUNCHES=1) makes it wait, to report
///   a kernel's failure from the call that launched it.
/// - The *_spec() functions and parse_mask() touch no GPU and throw
///   Error(InvalidArgument) on parameters out of range.
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

/// The kernels of the convolution family the library ships; each filter op lists those
/// that can run some of its specs. Launch-shape experiments and superseded kernels
/// (separable_fixed and its shapes, gradient_int's other shapes, box_stack_two_pass)
/// are the lab's (docs/lab.md).
enum class FilterVariant {
  Auto,       ///< the fastest measured variant that runs this spec exactly on this GPU
              ///< (an approximating one only with Accuracy::Fast: decimated)
  Naive,      ///< masks in global memory, a border branch at every tap; any mask size
  Constant,   ///< masks in __constant__ memory, no tiling (up to 16256 floats: one mask
              ///< up to 127x127, two up to 89x89)
  Tiled,      ///< masks up to 5x5: a warp walks down 32 columns, rows in registers, the
              ///< mask's columns passed between lanes by shuffles (masks as kernel
              ///< arguments); larger masks: tile plus halo in shared memory, masks as Constant.
              ///< Auto takes it for every mask up to 5x5 that is not rank 1, and for rank-1
              ///< masks up to 5x5 on 16-bit, float and 3-channel images
  TiledL2,    ///< only the tile in shared memory; the halo read through the cache
              ///< (strategy 2); masks as Constant
  Separable,  ///< rank-1 masks as a row pass and a column pass (blur, box, sharpen, edge
              ///< x|y, convolve with a rank-1 mask); factors up to 601 taps
  /// 8-bit only, integer arithmetic from a register window (docs/techniques/convolution.md):
  /// the Sobel, Scharr and Prewitt magnitudes (edge --direction both); 4-channel images
  /// not with AlphaMode::Premultiply.
  GradientInt,
  /// Gaussian blurs of sigma >= 3 only, by name (Auto never takes it): three stacked box
  /// filters per axis on running sums, the same cost at any sigma, within 6 levels of 8
  /// bits where edges meet (docs/techniques/convolution.md, "Large sigma"); other specs
  /// run separable.
  BoxStack,
  /// 8-bit: an integer mask run vertical pass first, the neighbours' sums taken from
  /// adjacent threads (docs/techniques/convolution.md, "8-bit filters: separable_packed");
  /// one symmetric convex rank-1 mask up to 9x9 with no bias (blur, box), on 1 and 3
  /// channels, and on 4 only with AlphaMode::Separate (blur and box default to
  /// Premultiply, which falls back to separable). Auto takes it up to 9x9, gray Gaussians
  /// up to 7x7.
  SeparablePacked,
  /// Gaussian blurs of sigma >= 3 only, as box_stack: a Gaussian decimation by about
  /// 0.75 sigma, the rest of the variance on the low-res samples and a Gaussian
  /// interpolation back, the same cost at any sigma and closer to the Gaussian than the
  /// boxes (docs/techniques/convolution.md, "Large sigma: decimated"); other specs run
  /// separable. Auto takes it only with Accuracy::Fast, from sigma about 4.02.
  Decimated,
  /// 8-bit only, exact integer sums from a register window: one mask of up to 3x3 whose
  /// weights are integers with magnitudes summing to at most 62, the Linear rule with a
  /// bias of whole levels, every alpha mode (convolve with such a mask, emboss at a whole
  /// strength, the Laplacian and the one-direction Sobel, Scharr and Prewitt masks).
  Integer3x3,
};
/// The names as the CLI and the registry write them ("tiled_l2"); no GPU, no throw.
const char* to_string(FilterVariant variant);
/// Throws Error(InvalidArgument) naming the choices on an unknown name.
FilterVariant filter_variant_from_name(const std::string& name);
/// Every variant, Auto first; does not throw.
const std::vector<FilterVariant>& all_filter_variants();

// ---- Gaussian blur -------------------------------------------------------------------
/// gaussian_blur(): a separable Gaussian, anisotropic where sigma_y differs from sigma.
struct GaussianParams {
  double sigma = 2.0;    ///< in x (and y unless sigma_y), in pixels: [kMinSigma, kMaxSigma]
  int radius = 0;        ///< taps each side of the centre in x, [0, kMaxRadius]; 0: ceil(3 * sigma)
  double sigma_y = 0.0;  ///< 0: the same as sigma; else [kMinSigma, kMaxSigma]
  int radius_y = 0;      ///< [0, kMaxRadius]; 0: radius if given and sigma_y is not, else ceil(3 * sigma_y)
  AlphaMode alpha = AlphaMode::Premultiply;  ///< how a 4-channel image's alpha takes part
  /// Exact by default; Fast lets Auto approximate large Gaussians (see Accuracy).
  Accuracy accuracy = Accuracy::Exact;

  static constexpr double kMinSigma = 0.1;   ///< smallest sigma accepted
  static constexpr double kMaxSigma = 100.0;  ///< largest sigma accepted
  static constexpr int kMaxRadius = 300;      ///< 3 * kMaxSigma

  /// sigma_y, or sigma where sigma_y is 0 (or less).
  double effective_sigma_y() const { return sigma_y > 0.0 ? sigma_y : sigma; }
  /// The x radius: `radius`, or ceil(3 * sigma) (at least 1, at most kMaxRadius) where
  /// it is 0. No checks, no throw.
  int effective_radius() const;
  /// The y radius: radius_y; else radius where radius is given and sigma_y is not; else
  /// ceil(3 * effective_sigma_y()) (at least 1, at most kMaxRadius). No checks, no throw.
  int effective_radius_y() const;
};
/// The normalised 1-D Gaussian weights for `sigma` (2*radius+1 of them, summing to 1;
/// radius 0: ceil(3 * sigma), at least 1). Throws Error(InvalidArgument) on a sigma
/// outside [kMinSigma, kMaxSigma] or a radius outside [0, kMaxRadius].
std::vector<float> gaussian_weights(double sigma, int radius);
/// The x weights of `params` (the row of the separable mask): gaussian_weights(sigma, radius).
std::vector<float> gaussian_weights(const GaussianParams& params);
/// The blur as one rank-1 convex mask, marked Gaussian (box_stack and decimated may run
/// it). Throws Error(InvalidArgument) on a sigma or radius out of range.
FilterSpec gaussian_spec(const GaussianParams& params);
/// Gaussian blur of src into dst (the file's comment states the contract).
void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& params, const Border& border = {},
                   FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- box (mean) filter -------------------------------------------------------------
/// box_filter(): the mean over a width x height rectangle centred on the pixel.
struct BoxParams {
  int width = 3;   ///< odd, 1..kMaxSize
  int height = 0;  ///< odd, 1..kMaxSize; 0: the same as width
  AlphaMode alpha = AlphaMode::Premultiply;  ///< how a 4-channel image's alpha takes part
  static constexpr int kMaxSize = 2 * GaussianParams::kMaxRadius + 1;  ///< 601
};
/// The box as one rank-1 convex mask. Throws Error(InvalidArgument) unless both sizes
/// are odd and in [1, kMaxSize].
FilterSpec box_spec(const BoxParams& params);
/// Box (mean) filter of src into dst (the file's comment states the contract).
void box_filter(const ImageView& src, const ImageView& dst, const BoxParams& params, const Border& border = {},
                FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- unsharp mask ------------------------------------------------------------------
/// sharpen(): out = centre + amount * d with d = centre - Gaussian blur, where |d| exceeds
/// the threshold (FilterOutput::Unsharp).
struct SharpenParams {
  double sigma = 1.0;      ///< of the Gaussian that the detail is measured against, as GaussianParams::sigma
  int radius = 0;          ///< as GaussianParams::radius; 0: ceil(3 * sigma)
  double amount = 1.0;     ///< how much of the detail (centre - blurred) is added: [0, kMaxAmount]
  double threshold = 0.0;  ///< details smaller than this fraction of the range are left alone: [0, 1]
  AlphaMode alpha = AlphaMode::Premultiply;  ///< how a 4-channel image's alpha takes part
  static constexpr double kMaxAmount = 20.0;  ///< largest amount accepted
};
/// The unsharp mask over gaussian_spec()'s mask. Throws Error(InvalidArgument) on a
/// sigma, radius, amount or threshold out of range.
FilterSpec sharpen_spec(const SharpenParams& params);
/// Unsharp mask of src into dst (the file's comment states the contract).
void sharpen(const ImageView& src, const ImageView& dst, const SharpenParams& params, const Border& border = {},
             FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- edges -------------------------------------------------------------------------
/// The 3x3 mask of edge_detect(). Sobel, Scharr and Prewitt take the derivative
/// (-1, 0, 1) across and smooth along with (1, 2, 1), (3, 10, 3) or (1, 1, 1), as
/// cv::Sobel and cv::Scharr; Laplacian is the 4-neighbour Laplacian (cv::Laplacian with
/// ksize 1) and has no direction.
enum class EdgeOperator { Sobel, Scharr, Prewitt, Laplacian };
/// Which derivative edge_detect() gives (EdgeParams::direction says what each means).
enum class EdgeDirection { X, Y, Both };
/// edge_detect()'s operator, direction and scale.
struct EdgeParams {
  EdgeOperator op = EdgeOperator::Sobel;  ///< the derivative mask
  /// X: d/dx (as cv::Sobel(dx=1, dy=0)), Y: d/dy, Both: sqrt(dx^2 + dy^2). The
  /// Laplacian has no direction and takes Both only. Integer outputs saturate (negative
  /// slopes become 0); float outputs keep sign and magnitude.
  EdgeDirection direction = EdgeDirection::Both;
  double scale = 1.0;  ///< multiplies the result; finite, magnitude up to 1e6
  AlphaMode alpha = AlphaMode::Keep;  ///< how a 4-channel image's alpha takes part
};
/// "sobel", "scharr", "prewitt" or "laplacian"; throws Error(InvalidArgument) otherwise.
EdgeOperator edge_operator_from_name(const std::string& name);
/// "x", "y" or "both"; throws Error(InvalidArgument) otherwise.
EdgeDirection edge_direction_from_name(const std::string& name);
/// One rank-1 mask for X or Y, two with FilterOutput::Magnitude for Both (one dense mask
/// for the Laplacian). Throws Error(InvalidArgument) on a scale out of range or a
/// Laplacian with a direction other than Both.
FilterSpec edge_spec(const EdgeParams& params);
/// Edge detection of src into dst (the file's comment states the contract).
void edge_detect(const ImageView& src, const ImageView& dst, const EdgeParams& params, const Border& border = {},
                 FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- emboss ------------------------------------------------------------------------
/// emboss(): the identity plus `strength` times the slope away from the light (a 3x3
/// mask): surfaces facing the light brighten, the others darken, flat areas keep their value.
struct EmbossParams {
  /// Where the light comes from: "n", "ne", "e", "se", "s", "sw", "w" or "nw".
  std::string light = "nw";
  double strength = 1.0;  ///< [0, 10]; 0 leaves the image unchanged
  AlphaMode alpha = AlphaMode::Keep;  ///< how a 4-channel image's alpha takes part
};
/// The emboss mask. Throws Error(InvalidArgument) on an unknown light or a strength out
/// of range.
FilterSpec emboss_spec(const EmbossParams& params);
/// Emboss of src into dst (the file's comment states the contract).
void emboss(const ImageView& src, const ImageView& dst, const EmbossParams& params, const Border& border = {},
            FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- custom masks ------------------------------------------------------------------
/// convolve(): any mask, applied as a correlation (as cv::filter2D).
struct ConvolveParams {
  Mask mask;               ///< odd width and height, width * height finite weights
  bool normalize = false;  ///< divide the weights by their sum (a sum of 0: Error(InvalidArgument))
  double bias = 0.0;       ///< added to every output, as a fraction of the range (0.5: mid-grey); finite
  AlphaMode alpha = AlphaMode::Premultiply;  ///< how a 4-channel image's alpha takes part
  /// The largest width and height parse_mask() accepts (convolve_spec() does not check it).
  static constexpr int kMaxSize = 255;
};
/// Parses "0 -1 0; -1 5 -1; 0 -1 0": rows separated by ';' or line breaks, numbers by
/// spaces, tabs or commas, '#' starts a comment to the end of the line. Throws
/// Error(InvalidArgument) saying what is wrong: a number that is not finite, rows of
/// unequal length, an empty mask, an even width or height, or one above kMaxSize.
Mask parse_mask(const std::string& text);
/// The mask (normalised if asked), with its rank-1 factors where it has them (separate()).
/// Throws Error(InvalidArgument) when the mask breaks validate()'s rules, normalize
/// meets a sum of 0, or the bias is not finite.
FilterSpec convolve_spec(const ConvolveParams& params);
/// Convolution of src with a custom mask into dst (the file's comment states the contract).
void convolve(const ImageView& src, const ImageView& dst, const ConvolveParams& params, const Border& border = {},
              FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

/// Runs any FilterSpec (validated first) with the given variant. An explicit variant
/// that cannot run the spec on this GPU (masks beyond __constant__, a tile beyond
/// shared memory, a mask that is not rank 1) falls back to the next simpler one
/// (box_stack, decimated -> separable; gradient_int -> separable_packed -> separable ->
/// tiled -> tiled_l2 -> constant -> naive); applied_variant() says which. Errors and
/// synchronisation as the file's comment states.
void apply_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border = {},
                  FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});
/// The variant apply_filter runs for this spec, format and request on the current device
/// (never Auto). Launches nothing; may query the current device's shared memory per
/// block (Error(Cuda) or Error(NoDevice) where that fails).
FilterVariant applied_variant(const FilterSpec& spec, PixelFormat format, FilterVariant requested);

}  // namespace gpufilter
