#pragma once
// The convolution filters (seed 004). Each is built as a FilterSpec (filter_spec.hpp),
// which the *_spec() functions return, so a program can also inspect or reuse the masks.
//
// Every filter has the shape op(src, dst, params, border, variant, ctx), and for each:
// - Preconditions: src and dst are non-empty views of device memory, of equal size and
//   format, each naturally aligned (a 4-channel pixel to its full size), not
//   overlapping (a filter cannot run in place); any pitch, sub-views included.
// - Errors: Error(InvalidArgument) for views or parameters that break these rules (the
//   message names the op, the parameter and the accepted range), Error(Cuda) when a
//   launch fails, Error(OutOfMemory) when the two-pass blur (radius above 32), box_stack
//   in two passes (sigma above about 75), decimated or the naive variant
//   cannot get its scratch memory. After an error dst is unspecified.
// - Synchronisation: none. The work is enqueued on ctx.stream and the call returns;
//   it is ordered after the stream's earlier work and before its later work. Only
//   ExecContext::sync_after_launch (or GPUFILTER_SYNC_LAUNCHES=1) makes it wait, to report
//   a kernel's failure from the call that launched it.
// - The *_spec() functions and parse_mask() touch no GPU and throw
//   Error(InvalidArgument) on parameters out of range.
#include <string>
#include <vector>

#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

// The kernels of the convolution family the library ships; each filter op lists those
// that can run some of its specs. Launch-shape experiments and superseded kernels
// (separable_fixed and its shapes, gradient_int's other shapes, box_stack_two_pass)
// are the lab's (docs/lab.md).
enum class FilterVariant {
  Auto,       // the fastest measured variant that runs this spec exactly on this GPU
              // (an approximating one only with Accuracy::Fast: decimated)
  Naive,      // masks in global memory, a border branch at every tap; any mask size
  Constant,   // masks in __constant__ memory, no tiling (masks up to 127x127 floats)
  Tiled,      // tile plus halo in shared memory (seed strategy 1)
  TiledL2,    // only the tile in shared memory; the halo read through the cache (strategy 2)
  Separable,  // rank-1 masks as a row pass and a column pass (blur, box, sharpen, edge x|y)
  // 8-bit only, integer arithmetic from a register window (docs/techniques/convolution.md):
  // the Sobel, Scharr and Prewitt magnitudes (edge --direction both).
  GradientInt,
  // Gaussian blurs of sigma >= 3 only, by name (Auto never takes it): three stacked box
  // filters per axis on running sums, the same cost at any sigma, within 6 levels of 8
  // bits where edges meet (docs/techniques/convolution.md, "Large sigma"); other specs
  // run separable.
  BoxStack,
  // 8-bit, 1, 3 and 4 channels: an integer mask run vertical pass first, the neighbours'
  // sums taken from adjacent threads (docs/techniques/convolution.md, "8-bit filters:
  // separable_packed"); symmetric convex rank-1 masks up to 9x9 (blur, box).
  SeparablePacked,
  // Gaussian blurs of sigma >= 3 only, as box_stack: a Gaussian decimation by about
  // 0.75 sigma, the rest of the variance on the low-res samples and a Gaussian
  // interpolation back, the same cost at any sigma and closer to the Gaussian than the
  // boxes (docs/techniques/convolution.md, "Large sigma: decimated"); other specs run
  // separable.
  Decimated,
};
// The names as the CLI and the registry write them ("tiled_l2"); no GPU, no throw.
const char* to_string(FilterVariant variant);
// Throws Error(InvalidArgument) naming the choices on an unknown name.
FilterVariant filter_variant_from_name(const std::string& name);
const std::vector<FilterVariant>& all_filter_variants();

// ---- Gaussian blur -------------------------------------------------------------------
struct GaussianParams {
  double sigma = 2.0;
  int radius = 0;        // taps each side of the centre in x; 0: ceil(3 * sigma)
  double sigma_y = 0.0;  // 0: the same as sigma
  int radius_y = 0;      // 0: radius if given, else ceil(3 * sigma_y)
  AlphaMode alpha = AlphaMode::Premultiply;
  /// Exact by default; Fast lets Auto approximate large Gaussians (see Accuracy).
  Accuracy accuracy = Accuracy::Exact;

  static constexpr double kMinSigma = 0.1;
  static constexpr double kMaxSigma = 100.0;
  static constexpr int kMaxRadius = 300;  // 3 * kMaxSigma

  double effective_sigma_y() const { return sigma_y > 0.0 ? sigma_y : sigma; }
  int effective_radius() const;    // x
  int effective_radius_y() const;  // y
};
// The normalised 1-D Gaussian weights for `sigma` (2*radius+1 of them, summing to 1).
// Throws Error(InvalidArgument) on a sigma or radius out of range.
std::vector<float> gaussian_weights(double sigma, int radius);
// The x weights of `params` (the row of the separable mask).
std::vector<float> gaussian_weights(const GaussianParams& params);
FilterSpec gaussian_spec(const GaussianParams& params);
void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& params, const Border& border = {},
                   FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- box (mean) filter -------------------------------------------------------------
struct BoxParams {
  int width = 3;   // odd, 1..kMaxSize
  int height = 0;  // odd; 0: the same as width
  AlphaMode alpha = AlphaMode::Premultiply;
  static constexpr int kMaxSize = 2 * GaussianParams::kMaxRadius + 1;
};
FilterSpec box_spec(const BoxParams& params);
void box_filter(const ImageView& src, const ImageView& dst, const BoxParams& params, const Border& border = {},
                FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- unsharp mask ------------------------------------------------------------------
struct SharpenParams {
  double sigma = 1.0;      // of the Gaussian that the detail is measured against
  int radius = 0;          // 0: ceil(3 * sigma)
  double amount = 1.0;     // how much of the detail (centre - blurred) is added
  double threshold = 0.0;  // details smaller than this fraction of the range are left alone
  AlphaMode alpha = AlphaMode::Premultiply;
  static constexpr double kMaxAmount = 20.0;
};
FilterSpec sharpen_spec(const SharpenParams& params);
void sharpen(const ImageView& src, const ImageView& dst, const SharpenParams& params, const Border& border = {},
             FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- edges -------------------------------------------------------------------------
enum class EdgeOperator { Sobel, Scharr, Prewitt, Laplacian };
enum class EdgeDirection { X, Y, Both };
struct EdgeParams {
  EdgeOperator op = EdgeOperator::Sobel;
  // X: d/dx (as cv::Sobel(dx=1, dy=0)), Y: d/dy, Both: sqrt(dx^2 + dy^2). The
  // Laplacian has no direction and takes Both only. Integer outputs saturate (negative
  // slopes become 0); float outputs keep sign and magnitude.
  EdgeDirection direction = EdgeDirection::Both;
  double scale = 1.0;  // multiplies the result
  AlphaMode alpha = AlphaMode::Keep;
};
EdgeOperator edge_operator_from_name(const std::string& name);
EdgeDirection edge_direction_from_name(const std::string& name);
FilterSpec edge_spec(const EdgeParams& params);
void edge_detect(const ImageView& src, const ImageView& dst, const EdgeParams& params, const Border& border = {},
                 FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- emboss ------------------------------------------------------------------------
struct EmbossParams {
  // Where the light comes from: "n", "ne", "e", "se", "s", "sw", "w" or "nw".
  std::string light = "nw";
  double strength = 1.0;  // 0 leaves the image unchanged
  AlphaMode alpha = AlphaMode::Keep;
};
FilterSpec emboss_spec(const EmbossParams& params);
void emboss(const ImageView& src, const ImageView& dst, const EmbossParams& params, const Border& border = {},
            FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// ---- custom masks ------------------------------------------------------------------
struct ConvolveParams {
  Mask mask;
  bool normalize = false;  // divide the weights by their sum (when it is not 0)
  double bias = 0.0;       // added to every output, as a fraction of the range (0.5: mid-grey)
  AlphaMode alpha = AlphaMode::Premultiply;
  static constexpr int kMaxSize = 255;  // width and height
};
// Parses "0 -1 0; -1 5 -1; 0 -1 0": rows separated by ';' or line breaks, numbers by
// spaces or commas, '#' starts a comment. Throws Error(InvalidArgument) saying what is wrong.
Mask parse_mask(const std::string& text);
FilterSpec convolve_spec(const ConvolveParams& params);
void convolve(const ImageView& src, const ImageView& dst, const ConvolveParams& params, const Border& border = {},
              FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});

// Runs any FilterSpec (validated first) with the given variant. An explicit variant
// that cannot run the spec on this GPU (masks beyond __constant__, a tile beyond
// shared memory, a mask that is not rank 1) falls back to the next simpler one
// (box_stack, decimated -> separable; gradient_int -> separable_packed -> separable ->
// tiled -> tiled_l2 -> constant -> naive); applied_variant() says which.
void apply_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border = {},
                  FilterVariant variant = FilterVariant::Auto, const ExecContext& ctx = {});
// The variant apply_filter runs for this spec, format and request on the current device.
FilterVariant applied_variant(const FilterSpec& spec, PixelFormat format, FilterVariant requested);

}  // namespace gpufilter
