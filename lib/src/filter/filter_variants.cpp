// The convolution family's variants: one table from which the names, the errors, the
// list of all variants and each filter op's registry entry are derived.
#include "filter/filter_variants.hpp"

#include "gpufilter/filters.hpp"
#include "common/variant_table.hpp"

namespace gpufilter {
namespace {

// What a variant needs of a spec before an op lists it.
enum class Needs { Nothing, Rank1, Convex, Gradients, Gaussians, IntegerMasks };

const ops::VariantRow<FilterVariant, Needs> kFilterVariants[] = {
    {FilterVariant::Auto, "auto", "the fastest variant that runs the spec on this GPU", Needs::Nothing},
    {FilterVariant::Naive, "naive", "masks in global memory, a border branch at every tap", Needs::Nothing},
    {FilterVariant::Constant, "constant", "masks in __constant__ memory, no tiling", Needs::Nothing},
    {FilterVariant::Tiled, "tiled", "tile plus halo in shared memory", Needs::Nothing},
    {FilterVariant::TiledL2, "tiled_l2", "the tile in shared memory, the halo through L2", Needs::Nothing},
    {FilterVariant::Separable, "separable", "rank-1 masks as a row pass and a column pass", Needs::Rank1},
    {FilterVariant::SeparablePacked, "separable_packed", "8-bit integer rank-1 masks up to 13x13, vertical pass first",
     Needs::Convex},
    {FilterVariant::GradientInt, "gradient_int", "8-bit Sobel, Scharr and Prewitt magnitudes in integers",
     Needs::Gradients},
    {FilterVariant::Integer3x3, "integer_3x3", "8-bit masks up to 3x3 of small integer weights, exact, in integers",
     Needs::IntegerMasks},
    {FilterVariant::BoxStack, "box_stack", "Gaussians of sigma >= 3 as three stacked boxes (approximate)",
     Needs::Gaussians},
    {FilterVariant::Decimated, "decimated", "Gaussians of sigma >= 3 through a decimated image (approximate)",
     Needs::Gaussians},
};

}  // namespace

const char* to_string(FilterVariant variant) { return ops::name_of(kFilterVariants, variant); }

FilterVariant filter_variant_from_name(const std::string& name) {
  return ops::value_of(kFilterVariants, name, "filter");
}

const std::vector<FilterVariant>& all_filter_variants() {
  static const std::vector<FilterVariant> all = ops::values_of(kFilterVariants);
  return all;
}

std::vector<std::string> ops::filter_variant_names(FilterSpecKinds kinds) {
  return names_of(kFilterVariants, [kinds](const auto& row) {
    switch (row.domain) {
      case Needs::Nothing: return true;
      case Needs::Rank1: return kinds.rank1;
      case Needs::Convex: return kinds.convex;
      case Needs::Gradients: return kinds.gradients;
      case Needs::Gaussians: return kinds.gaussians;
      case Needs::IntegerMasks: return kinds.integer_masks;
    }
    return false;
  });
}

}  // namespace gpufilter
