// The filters as masks: each op's parameters become a FilterSpec that both the GPU
// variants and the CPU reference evaluate.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/filters.hpp"
#include "throw_invalid.hpp"

namespace gpufilter {
namespace {

std::string number_text(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

Mask outer(const std::vector<float>& x, const std::vector<float>& y) {
  Mask mask;
  mask.width = static_cast<int>(x.size());
  mask.height = static_cast<int>(y.size());
  // Reserved: a sigma-30 mask is 181 x 181 floats, and growing it push by push cost host
  // time a call while the GPU waited for the launch (docs/techniques/convolution.md, "The variants").
  mask.weights.reserve(x.size() * y.size());
  for (float wy : y)
    for (float wx : x) mask.weights.push_back(wy * wx);
  return mask;
}

// A spec of one rank-1 mask, kept with its factors.
FilterSpec separable_spec(const std::vector<float>& x, const std::vector<float>& y) {
  FilterSpec spec;
  spec.masks.push_back(outer(x, y));  // moved, not copied from an initializer list
  spec.separable = {SeparableMask{x, y}};
  return spec;
}

void check_sigma(const char* op, const char* name, double sigma) {
  if (!(sigma >= GaussianParams::kMinSigma && sigma <= GaussianParams::kMaxSigma))
    throw_invalid(std::string(op) + ": " + name + " must be in [" + number_text(GaussianParams::kMinSigma) + ", " +
                  number_text(GaussianParams::kMaxSigma) + "], got " + number_text(sigma));
}

void check_radius(const char* op, int radius) {
  if (radius < 0 || radius > GaussianParams::kMaxRadius)
    throw_invalid(std::string(op) + ": radius must be in [0, " + std::to_string(GaussianParams::kMaxRadius) +
                  "] (0: ceil(3*sigma)), got " + std::to_string(radius));
}

int automatic_radius(double sigma) {
  return std::min(GaussianParams::kMaxRadius, std::max(1, static_cast<int>(std::ceil(3.0 * sigma))));
}

}  // namespace

// ---- Gaussian ------------------------------------------------------------------------

int GaussianParams::effective_radius() const { return radius > 0 ? radius : automatic_radius(sigma); }
int GaussianParams::effective_radius_y() const {
  if (radius_y > 0) return radius_y;
  if (radius > 0 && sigma_y <= 0.0) return radius;
  return automatic_radius(effective_sigma_y());
}

std::vector<float> gaussian_weights(double sigma, int radius) {
  check_sigma("blur", "sigma", sigma);
  check_radius("blur", radius);
  if (radius == 0) radius = automatic_radius(sigma);
  std::vector<double> w(static_cast<std::size_t>(2 * radius + 1));
  double sum = 0.0;
  for (int k = -radius; k <= radius; ++k)
    sum += w[static_cast<std::size_t>(k + radius)] = std::exp(-0.5 * k * k / (sigma * sigma));
  std::vector<float> weights;
  for (double v : w) weights.push_back(static_cast<float>(v / sum));
  return weights;
}

std::vector<float> gaussian_weights(const GaussianParams& params) {
  return gaussian_weights(params.sigma, params.radius);
}

FilterSpec gaussian_spec(const GaussianParams& params) {
  if (params.sigma_y != 0.0) check_sigma("blur", "sigma-y", params.sigma_y);
  check_radius("blur", params.radius_y);
  FilterSpec spec = separable_spec(gaussian_weights(params.sigma, params.effective_radius()),
                                   gaussian_weights(params.effective_sigma_y(), params.effective_radius_y()));
  spec.alpha = params.alpha;
  spec.convex = true;
  spec.gaussian = true;
  spec.accuracy = params.accuracy;
  return spec;
}

// ---- box -----------------------------------------------------------------------------

FilterSpec box_spec(const BoxParams& params) {
  const int height = params.height == 0 ? params.width : params.height;
  for (int size : {params.width, height})
    if (size < 1 || size > BoxParams::kMaxSize || size % 2 == 0)
      throw_invalid("box: the size must be odd, in [1, " + std::to_string(BoxParams::kMaxSize) + "], got " +
                    std::to_string(params.width) + "x" + std::to_string(height));
  FilterSpec spec = separable_spec(std::vector<float>(static_cast<std::size_t>(params.width), 1.0f / params.width),
                                   std::vector<float>(static_cast<std::size_t>(height), 1.0f / height));
  spec.alpha = params.alpha;
  spec.convex = true;
  return spec;
}

// ---- unsharp mask --------------------------------------------------------------------

FilterSpec sharpen_spec(const SharpenParams& params) {
  if (!(params.amount >= 0.0 && params.amount <= SharpenParams::kMaxAmount))
    throw_invalid("sharpen: amount must be in [0, " + number_text(SharpenParams::kMaxAmount) + "], got " +
                  number_text(params.amount));
  if (!(params.threshold >= 0.0 && params.threshold <= 1.0))
    throw_invalid("sharpen: threshold must be in [0, 1], got " + number_text(params.threshold));
  FilterSpec spec = gaussian_spec(GaussianParams{params.sigma, params.radius});
  spec.output = FilterOutput::Unsharp;
  spec.amount = params.amount;
  spec.threshold = params.threshold;
  spec.alpha = params.alpha;
  spec.convex = false;
  return spec;
}

// ---- edges ---------------------------------------------------------------------------

EdgeOperator edge_operator_from_name(const std::string& name) {
  if (name == "sobel") return EdgeOperator::Sobel;
  if (name == "scharr") return EdgeOperator::Scharr;
  if (name == "prewitt") return EdgeOperator::Prewitt;
  if (name == "laplacian") return EdgeOperator::Laplacian;
  throw_invalid("edge: unknown operator '" + name + "'; use sobel, scharr, prewitt or laplacian");
}

EdgeDirection edge_direction_from_name(const std::string& name) {
  if (name == "x") return EdgeDirection::X;
  if (name == "y") return EdgeDirection::Y;
  if (name == "both") return EdgeDirection::Both;
  throw_invalid("edge: unknown direction '" + name + "'; use x, y or both");
}

FilterSpec edge_spec(const EdgeParams& params) {
  if (!(std::isfinite(params.scale) && std::fabs(params.scale) <= 1e6))
    throw_invalid("edge: scale must be a finite number of magnitude up to 1e6, got " + number_text(params.scale));
  const auto s = static_cast<float>(params.scale);
  FilterSpec spec;
  if (params.op == EdgeOperator::Laplacian) {
    if (params.direction != EdgeDirection::Both)
      throw_invalid("edge: the Laplacian has no direction; use --direction both");
    // OpenCV's Laplacian with ksize 1.
    spec.masks = {Mask{3, 3, {0, s, 0, s, -4 * s, s, 0, s, 0}}};
  } else {
    // The derivative across, the smoothing along (cv::Sobel, cv::Scharr; Prewitt smooths evenly).
    const std::vector<float> derivative{-s, 0, s};
    const std::vector<float> smoothing = params.op == EdgeOperator::Sobel    ? std::vector<float>{1, 2, 1}
                                         : params.op == EdgeOperator::Scharr ? std::vector<float>{3, 10, 3}
                                                                             : std::vector<float>{1, 1, 1};
    const FilterSpec dx = separable_spec(derivative, smoothing);
    const FilterSpec dy = separable_spec(smoothing, derivative);
    switch (params.direction) {
      case EdgeDirection::X: spec = dx; break;
      case EdgeDirection::Y: spec = dy; break;
      case EdgeDirection::Both:
        spec.masks = {dx.masks[0], dy.masks[0]};
        spec.separable = {dx.separable[0], dy.separable[0]};
        spec.output = FilterOutput::Magnitude;
        break;
    }
  }
  spec.alpha = params.alpha;
  return spec;
}

// ---- emboss --------------------------------------------------------------------------

FilterSpec emboss_spec(const EmbossParams& params) {
  static const struct {
    const char* name;
    int lx, ly;  // where the light comes from, as a step in x and y
  } kLights[] = {{"n", 0, -1}, {"ne", 1, -1}, {"e", 1, 0}, {"se", 1, 1},
                 {"s", 0, 1},  {"sw", -1, 1}, {"w", -1, 0}, {"nw", -1, -1}};
  const auto* light = std::find_if(std::begin(kLights), std::end(kLights),
                                   [&](const auto& l) { return params.light == l.name; });
  if (light == std::end(kLights))
    throw_invalid("emboss: unknown light '" + params.light + "'; use n, ne, e, se, s, sw, w or nw");
  if (!(params.strength >= 0.0 && params.strength <= 10.0))
    throw_invalid("emboss: strength must be in [0, 10], got " + number_text(params.strength));
  // The identity plus `strength` times the slope away from the light: surfaces facing
  // the light brighten, the others darken, flat areas keep their value.
  Mask mask{3, 3, std::vector<float>(9, 0.0f)};
  for (int j = -1; j <= 1; ++j)
    for (int i = -1; i <= 1; ++i)
      mask.weights[static_cast<std::size_t>((j + 1) * 3 + i + 1)] =
          static_cast<float>(-params.strength * (i * light->lx + j * light->ly));
  mask.weights[4] += 1.0f;
  FilterSpec spec;
  spec.masks = {mask};
  spec.alpha = params.alpha;
  return spec;
}

// ---- custom masks (parse_mask: mask_text.cpp) ------------------------------------

FilterSpec convolve_spec(const ConvolveParams& params) {
  FilterSpec spec;
  Mask mask = params.mask;
  if (params.normalize) {
    double sum = 0.0;
    for (float w : mask.weights) sum += w;
    if (sum == 0.0) throw_invalid("convolve: --normalize needs weights whose sum is not 0");
    for (float& w : mask.weights) w = static_cast<float>(w / sum);
  }
  spec.masks = {mask};
  validate(spec, "convolve");
  SeparableMask factors = separate(mask);
  if (!factors.x.empty()) spec.separable = {std::move(factors)};
  spec.bias = params.bias;
  spec.alpha = params.alpha;
  return spec;
}

}  // namespace gpufilter
