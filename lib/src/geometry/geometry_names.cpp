// Names of the geometry family's enums, as the registry and the CLI write them: the
// variants from one table each, the other choices (block shapes, axes, filters) by name.
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "geometry/geometry_variants.hpp"

namespace gpufilter {
namespace {

template <class Enum, std::size_t K>
Enum from_name(const std::string& name, const Enum (&all)[K], const char* what) {
  std::string choices;
  for (Enum value : all) {
    if (name == to_string(value)) return value;
    choices += (choices.empty() ? "" : ", ") + std::string(to_string(value));
  }
  throw Error(ErrorCode::InvalidArgument, std::string("unknown ") + what + " '" + name + "'; use one of " + choices);
}

constexpr BlockShape kBlockShapes[] = {BlockShape::Wide32x8, BlockShape::Square16x16, BlockShape::Thin8x32};
constexpr FlipAxis kFlipAxes[] = {FlipAxis::Horizontal, FlipAxis::Vertical, FlipAxis::Both};
constexpr ResizeFilter kResizeFilters[] = {ResizeFilter::Nearest, ResizeFilter::Linear, ResizeFilter::Cubic,
                                           ResizeFilter::Area, ResizeFilter::Lanczos};

}  // namespace

const char* to_string(TransposeVariant variant) { return ops::name_of(ops::kTransposeVariants, variant); }
const char* to_string(RotateVariant variant) { return ops::name_of(ops::kRotateVariants, variant); }
const char* to_string(FlipVariant variant) { return ops::name_of(ops::kFlipVariants, variant); }
const char* to_string(ResizeVariant variant) { return ops::name_of(ops::kResizeVariants, variant); }

const char* to_string(BlockShape block) {
  switch (block) {
    case BlockShape::Wide32x8: return "32x8";
    case BlockShape::Square16x16: return "16x16";
    case BlockShape::Thin8x32: return "8x32";
  }
  return "?";
}

const char* to_string(FlipAxis axis) {
  switch (axis) {
    case FlipAxis::Horizontal: return "h";
    case FlipAxis::Vertical: return "v";
    case FlipAxis::Both: return "both";
  }
  return "?";
}

const char* to_string(ResizeFilter filter) {
  switch (filter) {
    case ResizeFilter::Nearest: return "nearest";
    case ResizeFilter::Linear: return "linear";
    case ResizeFilter::Cubic: return "cubic";
    case ResizeFilter::Area: return "area";
    case ResizeFilter::Lanczos: return "lanczos";
  }
  return "?";
}

TransposeVariant transpose_variant_from_name(const std::string& name) {
  return ops::value_of(ops::kTransposeVariants, name, "transpose");
}
RotateVariant rotate_variant_from_name(const std::string& name) {
  return ops::value_of(ops::kRotateVariants, name, "rotate");
}
FlipVariant flip_variant_from_name(const std::string& name) { return ops::value_of(ops::kFlipVariants, name, "flip"); }
ResizeVariant resize_variant_from_name(const std::string& name) {
  return ops::value_of(ops::kResizeVariants, name, "resize");
}
BlockShape block_shape_from_name(const std::string& name) { return from_name(name, kBlockShapes, "block shape"); }
FlipAxis flip_axis_from_name(const std::string& name) { return from_name(name, kFlipAxes, "flip axis"); }
ResizeFilter resize_filter_from_name(const std::string& name) {
  return from_name(name, kResizeFilters, "resize filter");
}

}  // namespace gpufilter
