// The median filter: the names of its variants and its registry entry (its GPU side:
// gpu/median_gpu.cpp).
#include <array>
#include <string>

#include "rank/median_cpu.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/median.hpp"
#include "gpufilter/reference.hpp"
#include "common/operations.hpp"

namespace gpufilter {
namespace {

struct NamedMedian {
  MedianVariant variant;
  const char* name;
};
constexpr NamedMedian kMedianVariants[] = {
    {MedianVariant::Auto, "auto"},
    {MedianVariant::Naive, "naive"},
    {MedianVariant::Tiled, "tiled"},
    {MedianVariant::Walk, "walk"},
};

}  // namespace

const char* to_string(MedianVariant variant) {
  for (const NamedMedian& v : kMedianVariants)
    if (v.variant == variant) return v.name;
  return "unknown";
}

MedianVariant median_variant_from_name(const std::string& name) {
  for (const NamedMedian& v : kMedianVariants)
    if (name == v.name) return v.variant;
  std::string names;
  for (const NamedMedian& v : kMedianVariants) names += (names.empty() ? "" : ", ") + std::string(v.name);
  throw Error(ErrorCode::InvalidArgument, "median: unknown variant '" + name + "'; use one of " + names);
}

const std::vector<MedianVariant>& all_median_variants() {
  static const std::vector<MedianVariant> all = [] {
    std::vector<MedianVariant> list;
    for (const NamedMedian& v : kMedianVariants) list.push_back(v.variant);
    return list;
  }();
  return all;
}

namespace ops {
namespace {

MedianParams median_params_of(const ParamValues& values) {
  MedianParams params;
  params.radius = static_cast<int>(values.number("radius"));
  return params;
}

}  // namespace

Operation make_median_operation() {
  Operation op;
  op.name = "median";
  op.group = OperationGroup::Filters;
  op.summary = "Median of each channel over a square window: removes speckle noise, keeps edges";
  op.params = {number_param("radius", "window half-width: a square of 2*radius+1 pixels (1: 3x3, 2: 5x5, 3: 7x7)",
                            1.0, MedianParams::kMaxRadius, 1.0, true)};
  op.formats = all_pixel_formats();
  for (MedianVariant variant : all_median_variants()) op.variants.emplace_back(to_string(variant));
  op.default_variant = to_string(MedianVariant::Auto);
  op.uses_border = true;
  op.reach = [](const ParamValues& values) {
    const int radius = median_params_of(values).radius;
    return std::array<int, 2>{radius, radius};
  };
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border& border) {
    reference::median_filter(src, dst, median_params_of(values), border);
  };
  op.run_cpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border& border) {
    cpu::median_filter(src, dst, median_params_of(values), border);
  };
  op.tolerance = [](PixelFormat) { return Tolerance{0.0}; };  // a median is one of its inputs
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues&) {
    return 2 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes();
  };
  op.bench_params = {{"radius", 1}};  // 3x3, as NPP's median peer
  op.test_params = {{"radius", 2}};   // 5x5; tests/gpu_median_test.cpp runs the 3x3 and 7x7 kernels
  return op;
}

GPUFILTER_REGISTER_OPERATION(make_median_operation);

}  // namespace ops
}  // namespace gpufilter
