// Names of the geometry family's enums, as the registry and the CLI write them.
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"

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

constexpr TransposeVariant kTransposeVariants[] = {
    TransposeVariant::NaiveRow,    TransposeVariant::NaiveCol,    TransposeVariant::Unroll4Row,
    TransposeVariant::Unroll4Col,  TransposeVariant::DiagonalRow, TransposeVariant::DiagonalCol,
    TransposeVariant::Tiled,       TransposeVariant::TiledPadded, TransposeVariant::Fast,
    TransposeVariant::FastWide};
constexpr BlockShape kBlockShapes[] = {BlockShape::Wide32x8, BlockShape::Square16x16, BlockShape::Thin8x32};
constexpr FlipAxis kFlipAxes[] = {FlipAxis::Horizontal, FlipAxis::Vertical, FlipAxis::Both};
constexpr FlipVariant kFlipVariants[] = {FlipVariant::Naive, FlipVariant::Vectorized, FlipVariant::Wide};
constexpr ResizeFilter kResizeFilters[] = {ResizeFilter::Nearest, ResizeFilter::Linear, ResizeFilter::Cubic,
                                           ResizeFilter::Area, ResizeFilter::Lanczos};
constexpr RotateVariant kRotateVariants[] = {RotateVariant::Direct, RotateVariant::Tiled, RotateVariant::Wide,
                                             RotateVariant::Texture};

}  // namespace

const char* to_string(TransposeVariant variant) {
  switch (variant) {
    case TransposeVariant::NaiveRow: return "naive_row";
    case TransposeVariant::NaiveCol: return "naive_col";
    case TransposeVariant::Unroll4Row: return "unroll4_row";
    case TransposeVariant::Unroll4Col: return "unroll4_col";
    case TransposeVariant::DiagonalRow: return "diagonal_row";
    case TransposeVariant::DiagonalCol: return "diagonal_col";
    case TransposeVariant::Tiled: return "tiled";
    case TransposeVariant::TiledPadded: return "tiled_padded";
    case TransposeVariant::Fast: return "fast";
    case TransposeVariant::FastWide: return "fast_wide";
  }
  return "?";
}

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

const char* to_string(FlipVariant variant) {
  switch (variant) {
    case FlipVariant::Naive: return "naive";
    case FlipVariant::Vectorized: return "vectorized";
    case FlipVariant::Wide: return "wide";
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

const char* to_string(RotateVariant variant) {
  switch (variant) {
    case RotateVariant::Direct: return "bilinear";
    case RotateVariant::Tiled: return "bilinear_tiled";
    case RotateVariant::Wide: return "bilinear_wide";
    case RotateVariant::Texture: return "bilinear_texture";
  }
  return "?";
}

TransposeVariant transpose_variant_from_name(const std::string& name) {
  return from_name(name, kTransposeVariants, "transpose variant");
}
BlockShape block_shape_from_name(const std::string& name) { return from_name(name, kBlockShapes, "block shape"); }
FlipAxis flip_axis_from_name(const std::string& name) { return from_name(name, kFlipAxes, "flip axis"); }
FlipVariant flip_variant_from_name(const std::string& name) { return from_name(name, kFlipVariants, "flip variant"); }
ResizeFilter resize_filter_from_name(const std::string& name) {
  return from_name(name, kResizeFilters, "resize filter");
}
RotateVariant rotate_variant_from_name(const std::string& name) {
  return from_name(name, kRotateVariants, "rotate variant");
}

}  // namespace gpufilter
