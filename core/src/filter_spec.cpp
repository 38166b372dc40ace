#include "gpufilter/filter_spec.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gpufilter/error.hpp"

namespace gpufilter {

const char* to_string(AlphaMode mode) {
  switch (mode) {
    case AlphaMode::Premultiply: return "premultiply";
    case AlphaMode::Separate: return "separate";
    case AlphaMode::Keep: return "keep";
  }
  return "?";
}

AlphaMode alpha_mode_from_name(const std::string& name) {
  for (AlphaMode mode : {AlphaMode::Premultiply, AlphaMode::Separate, AlphaMode::Keep})
    if (name == to_string(mode)) return mode;
  throw Error(ErrorCode::InvalidArgument, "unknown alpha mode '" + name + "'; use premultiply, separate or keep");
}

const char* to_string(Accuracy accuracy) {
  switch (accuracy) {
    case Accuracy::Exact: return "exact";
    case Accuracy::Fast: return "fast";
  }
  return "exact";
}

Accuracy accuracy_from_name(const std::string& name) {
  for (Accuracy accuracy : {Accuracy::Exact, Accuracy::Fast})
    if (name == to_string(accuracy)) return accuracy;
  throw Error(ErrorCode::InvalidArgument, "unknown accuracy '" + name + "'; use exact or fast");
}

SeparableMask separate(const Mask& mask) {
  // A rank-1 mask is an outer product: take the row and the column through the
  // largest weight and check every weight against their product.
  std::size_t peak = 0;
  for (std::size_t i = 0; i < mask.weights.size(); ++i)
    if (std::fabs(mask.weights[i]) > std::fabs(mask.weights[peak])) peak = i;
  const double pivot = mask.weights.empty() ? 0.0 : mask.weights[peak];
  if (pivot == 0.0) return {};
  const int pi = static_cast<int>(peak) % mask.width, pj = static_cast<int>(peak) / mask.width;
  SeparableMask factors;
  for (int i = 0; i < mask.width; ++i) factors.x.push_back(mask.at(i, pj));
  for (int j = 0; j < mask.height; ++j) factors.y.push_back(static_cast<float>(mask.at(pi, j) / pivot));
  double largest = 0.0;
  for (float w : mask.weights) largest = std::fmax(largest, std::fabs(w));
  for (int j = 0; j < mask.height; ++j)
    for (int i = 0; i < mask.width; ++i) {
      const double product = static_cast<double>(factors.y[static_cast<std::size_t>(j)]) * factors.x[static_cast<std::size_t>(i)];
      if (std::fabs(product - mask.at(i, j)) > 1e-6 * largest) return {};
    }
  return factors;
}

namespace {

// Whether no weight is infinite or NaN (exponent bits all set), as an integer reduction
// the compiler vectorizes: a sigma-30 mask has 32,761 weights, checked on every call.
bool all_finite(const std::vector<float>& weights) {
  std::uint32_t not_finite = 0;
  for (float w : weights) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &w, sizeof bits);
    not_finite |= static_cast<std::uint32_t>((bits & 0x7f800000u) == 0x7f800000u);
  }
  return not_finite == 0;
}

}  // namespace

void validate(const FilterSpec& spec, const std::string& op) {
  const auto fail = [&](const std::string& why) { throw Error(ErrorCode::InvalidArgument, op + ": " + why); };
  const std::size_t wanted = spec.output == FilterOutput::Magnitude ? 2 : 1;
  if (spec.masks.size() != wanted)
    fail("the filter needs " + std::to_string(wanted) + " mask(s), got " + std::to_string(spec.masks.size()));
  for (const Mask& mask : spec.masks) {
    if (mask.width < 1 || mask.height < 1 || mask.width % 2 == 0 || mask.height % 2 == 0)
      fail("mask sizes must be odd and positive, got " + std::to_string(mask.width) + "x" + std::to_string(mask.height));
    if (mask.width != spec.width() || mask.height != spec.height()) fail("the masks must have one size");
    if (mask.weights.size() != static_cast<std::size_t>(mask.width) * static_cast<std::size_t>(mask.height))
      fail("a " + std::to_string(mask.width) + "x" + std::to_string(mask.height) + " mask needs " +
           std::to_string(mask.width * mask.height) + " weights, got " + std::to_string(mask.weights.size()));
    if (!all_finite(mask.weights)) fail("mask weights must be finite numbers");
  }
  for (std::size_t k = 0; k < spec.separable.size(); ++k) {
    const SeparableMask& factors = spec.separable[k];
    if (static_cast<int>(factors.x.size()) != spec.width() || static_cast<int>(factors.y.size()) != spec.height())
      fail("the separable factors must match the mask's size");
  }
  if (!std::isfinite(spec.bias) || !std::isfinite(spec.amount) || !std::isfinite(spec.threshold))
    fail("bias, amount and threshold must be finite");
}

}  // namespace gpufilter
