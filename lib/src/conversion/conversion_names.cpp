// The conversion family's names: its variants and gray's weights (its GPU entry points:
// gpu/conversion_gpu.cpp).
#include <string>

#include "gpufilter/conversions.hpp"
#include "conversion/conversion_variants.hpp"
#include "throw_invalid.hpp"

namespace gpufilter {

ConversionVariant conversion_variant_from_name(const std::string& name) {
  return ops::value_of(ops::kConversionVariants, name, "conversion");
}

const char* to_string(ConversionVariant variant) { return ops::name_of(ops::kConversionVariants, variant); }

GrayWeights gray_weights_from_name(const std::string& name) {
  if (name == "bt601") return GrayWeights::Bt601;
  if (name == "bt709") return GrayWeights::Bt709;
  throw_invalid("gray: unknown weights '" + name + "'; use bt601 or bt709");
}

const char* to_string(GrayWeights weights) { return weights == GrayWeights::Bt601 ? "bt601" : "bt709"; }

}  // namespace gpufilter
