// The conversions' library entry points: views checked against the format each op
// produces, then one launch.
#include <string>

#include "gpufilter/conversions.hpp"
#include "gpufilter/error.hpp"
#include "kernels/conversion/conversion_launch.hpp"
#include "kernels/conversion/pixel_mappings.hpp"
#include "conversion/conversion_variants.hpp"
#include "common/op_checks.hpp"
#include "common/operations.hpp"
#include "throw_invalid.hpp"

namespace gpufilter {
namespace {

void check_conversion(const char* op, const ImageView& src, const ImageView& dst, PixelFormat expected) {
  validate_view(src, op);
  validate_view(dst, op);
  if (dst.width != src.width || dst.height != src.height || dst.format != expected)
    throw_invalid(std::string(op) + ": for a " + std::to_string(src.width) + "x" + std::to_string(src.height) + " " +
                  src.format.name() + " source the destination must be " + std::to_string(src.width) + "x" +
                  std::to_string(src.height) + " " + expected.name() + ", got " + std::to_string(dst.width) + "x" +
                  std::to_string(dst.height) + " " + dst.format.name());
  constexpr int kMaxWidth = 1 << 30;
  if (src.width > kMaxWidth) throw_invalid(std::string(op) + ": images wider than 2^30 pixels are not supported");
  ops::check_aligned(op, "source", src);
  ops::check_aligned(op, "destination", dst);
  ops::check_device_pair(op, src, dst);
  ops::check_no_overlap(op, src, dst);
}

void need_channels(const char* op, const ImageView& src, int low, int high) {
  if (src.format.channels < low || src.format.channels > high)
    throw_invalid(std::string(op) + ": the source needs " +
                  (low == high ? std::to_string(low) : std::to_string(low) + " or " + std::to_string(high)) +
                  " channels, got " + src.format.name());
}

kernels::PixelKernel kernel_of(ConversionVariant variant) {
  switch (variant) {
    case ConversionVariant::Pixel: return kernels::PixelKernel::Pixel;
    case ConversionVariant::Unroll4: return kernels::PixelKernel::Unroll4;
    case ConversionVariant::Vec16Warp: break;
  }
  return kernels::PixelKernel::Vec16Warp;
}

// Pixels a thread of the layout kernels moves (vec16_warp falls back to unroll4 where
// its kernel does not apply).
int unroll_of(ConversionVariant variant) { return variant == ConversionVariant::Pixel ? 1 : 4; }

kernels::PlaneSet plane_set(const PlanarView& planar) {
  kernels::PlaneSet set;
  for (int c = 0; c < planar.channels; ++c) set.planes[c] = planar.planes[c];
  set.pitch = planar.pitch;
  return set;
}

void check_planes(const char* op, const ImageView& image, const PlanarView& planar, bool image_is_src) {
  validate_view(image, op);
  if (image.format.channels < 3) throw_invalid(std::string(op) + ": the interleaved image needs 3 or 4 channels");
  if (planar.channels != image.format.channels || planar.type != image.format.type || planar.width != image.width ||
      planar.height != image.height)
    throw_invalid(std::string(op) + ": the planes must be " + std::to_string(image.format.channels) + " planes of " +
                  std::to_string(image.width) + "x" + std::to_string(image.height) + " " +
                  to_string(image.format.type));
  ops::check_aligned(op, image_is_src ? "source" : "destination", image);
  for (int c = 0; c < planar.channels; ++c) {
    const ImageView plane = planar.plane(c);
    validate_view(plane, op);
    ops::check_aligned(op, image_is_src ? "destination" : "source", plane);
    ops::check_device_pair(op, image, plane);
    ops::check_no_overlap(op, image, plane);
  }
}

}  // namespace

void gray(const ImageView& src, const ImageView& dst, GrayWeights weights, ConversionVariant variant,
          const ExecContext& ctx) {
  need_channels("gray", src, 3, 4);
  check_conversion("gray", src, dst, PixelFormat{src.format.type, 1});
  kernels::launch_convert_pixels(src, dst, kernels::gray_mapping(weights), kernel_of(variant), ctx);
}

void add_alpha(const ImageView& src, const ImageView& dst, ConversionVariant variant, const ExecContext& ctx) {
  need_channels("add_alpha", src, 3, 3);
  check_conversion("add_alpha", src, dst, PixelFormat{src.format.type, 4});
  kernels::launch_convert_pixels(src, dst, kernels::map_only(kernels::PixelMap::AddAlpha), kernel_of(variant), ctx);
}

void drop_alpha(const ImageView& src, const ImageView& dst, ConversionVariant variant, const ExecContext& ctx) {
  need_channels("drop_alpha", src, 4, 4);
  check_conversion("drop_alpha", src, dst, PixelFormat{src.format.type, 3});
  kernels::launch_convert_pixels(src, dst, kernels::map_only(kernels::PixelMap::DropAlpha), kernel_of(variant), ctx);
}

void swap_channels(const ImageView& src, const ImageView& dst, const ChannelOrder& order, ConversionVariant variant,
                   const ExecContext& ctx) {
  need_channels("swap_channels", src, 3, 4);
  check_conversion("swap_channels", src, dst, src.format);
  if (order.channels != src.format.channels)
    throw_invalid("swap_channels: the order is for " + std::to_string(order.channels) + " channels, the image has " +
                  std::to_string(src.format.channels));
  kernels::launch_convert_pixels(src, dst, kernels::swap_mapping(order), kernel_of(variant), ctx);
}

void convert_depth(const ImageView& src, const ImageView& dst, ConversionVariant variant, const ExecContext& ctx) {
  check_conversion("convert", src, dst, PixelFormat{dst.format.type, src.format.channels});
  kernels::launch_convert_pixels(src, dst, kernels::map_only(kernels::PixelMap::Depth), kernel_of(variant), ctx);
}

void to_planar(const ImageView& src, const PlanarView& dst, ConversionVariant variant, const ExecContext& ctx) {
  check_planes("planar", src, dst, true);
  if (variant == ConversionVariant::Vec16Warp && kernels::launch_to_planar_vec16(src, plane_set(dst), ctx)) return;
  kernels::launch_to_planar(src, plane_set(dst), unroll_of(variant), ctx);
}

void to_interleaved(const PlanarView& src, const ImageView& dst, ConversionVariant variant, const ExecContext& ctx) {
  check_planes("interleaved", dst, src, false);
  if (variant == ConversionVariant::Vec16Warp && kernels::launch_to_interleaved_vec16(plane_set(src), dst, ctx)) return;
  kernels::launch_to_interleaved(plane_set(src), dst, unroll_of(variant), ctx);
}

namespace {

// Each conversion's GPU run: its parameters from the registry's values.
using Variant = ConversionVariant;
using Ctx = ExecContext;

const ops::FamilyRun<ConversionVariant> kConversionRuns[] = {
    {"gray", [](const ImageView& s, const ImageView& d, const ParamValues& v, Variant variant, const Ctx& ctx) {
       gray(s, d, gray_weights_from_name(v.text("weights")), variant, ctx);
     }},
    {"add_alpha", [](const ImageView& s, const ImageView& d, const ParamValues&, Variant variant,
                     const Ctx& ctx) { add_alpha(s, d, variant, ctx); }},
    {"drop_alpha", [](const ImageView& s, const ImageView& d, const ParamValues&, Variant variant,
                      const Ctx& ctx) { drop_alpha(s, d, variant, ctx); }},
    {"swap_channels",
     [](const ImageView& s, const ImageView& d, const ParamValues& v, Variant variant, const Ctx& ctx) {
       swap_channels(s, d, ChannelOrder::parse(ops::order_of(v), s.format.channels), variant, ctx);
     }},
    {"convert", [](const ImageView& s, const ImageView& d, const ParamValues&, Variant variant,
                   const Ctx& ctx) { convert_depth(s, d, variant, ctx); }},
    {"planar", [](const ImageView& s, const ImageView& d, const ParamValues&, Variant variant, const Ctx& ctx) {
       to_planar(s, planar_view(d, s.format.channels), variant, ctx);
     }},
    {"interleaved", [](const ImageView& s, const ImageView& d, const ParamValues& v, Variant variant,
                       const Ctx& ctx) { to_interleaved(planar_view(s, ops::planes_of(v)), d, variant, ctx); }},
};

void bind_conversions(Operation& op) {
  ops::bind_family_run(op, kConversionRuns, conversion_variant_from_name);
}

GPUFILTER_BIND_GPU_FAMILY(bind_conversions);

}  // namespace
}  // namespace gpufilter
