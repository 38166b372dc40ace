// Which kernel runs a FilterSpec: the variant asked for where it can, else the next
// simpler one; for Auto, the fastest that can (docs/techniques/convolution.md).
#include <algorithm>
#include <string>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/filters.hpp"
#include "kernels/convolution/box_stack_launch.hpp"
#include "kernels/convolution/decimated_launch.hpp"
#include "kernels/convolution/filter2d_launch.hpp"
#include "kernels/convolution/separable_fixed_launch.hpp"
#include "kernels/convolution/separable_fixed_tuning.hpp"
#include "kernels/convolution/separable_fixed_weights.hpp"
#include "kernels/convolution/separable_launch.hpp"
#include "kernels/convolution/separable_packed_launch.hpp"
#include "kernels/convolution/separable_packed_tuning.hpp"
#include "kernels/convolution/separable_packed_weights.hpp"
#include "kernels/convolution/separable_tuning.hpp"
#include "ops/filter_run.hpp"
#include "ops/op_checks.hpp"

namespace gpufilter {
namespace {

bool one_rank1_mask(const FilterSpec& spec) { return spec.is_separable() && spec.masks.size() == 1; }

// The kernel a launch-shape variant runs (itself for every other variant).
FilterVariant kernel_of(FilterVariant variant) {
  switch (variant) {
    case FilterVariant::SeparableFixedLean:
    case FilterVariant::SeparableFixedDeep:
    case FilterVariant::SeparableFixedSerial: return FilterVariant::SeparableFixed;
    case FilterVariant::GradientIntLean:
    case FilterVariant::GradientIntDeep:
    case FilterVariant::GradientIntSerial: return FilterVariant::GradientInt;
    case FilterVariant::BoxStackTwoPass: return FilterVariant::BoxStack;
    default: return variant;
  }
}

kernels::FixedShapeId shape_of(FilterVariant variant) {
  switch (variant) {
    case FilterVariant::SeparableFixedLean:
    case FilterVariant::GradientIntLean: return kernels::FixedShapeId::Lean;
    case FilterVariant::SeparableFixedDeep:
    case FilterVariant::GradientIntDeep: return kernels::FixedShapeId::Deep;
    case FilterVariant::SeparableFixedSerial:
    case FilterVariant::GradientIntSerial: return kernels::FixedShapeId::Serial;
    default: return kernels::FixedShapeId::Tuned;
  }
}

bool can_run(FilterVariant variant, const FilterSpec& spec, PixelFormat format) {
  switch (kernel_of(variant)) {
    case FilterVariant::Naive: return true;
    case FilterVariant::Constant:
    case FilterVariant::TiledL2: return kernels::filter2d_constant_fits(spec);
    case FilterVariant::Tiled: return kernels::filter2d_constant_fits(spec) && kernels::filter2d_tiled_fits(format, spec);
    case FilterVariant::Separable:
      return one_rank1_mask(spec) && spec.width() <= kernels::SeparableTuning::kMaxTaps &&
             spec.height() <= kernels::SeparableTuning::kMaxTaps;
    case FilterVariant::SeparableFixed: return kernels::separable_fixed_fits(format, spec);
    case FilterVariant::SeparablePacked: return kernels::separable_packed_fits(format, spec);
    case FilterVariant::GradientInt: return kernels::gradient_int_fits(format, spec);
    case FilterVariant::BoxStack: return kernels::box_stack_fits(spec);
    case FilterVariant::Decimated: return kernels::decimated_fits(spec);
    case FilterVariant::Auto: return true;
    default: break;
  }
  return false;
}

// Simplest last: each variant falls back to the one after it. The 8-bit integer
// kernels come first: where they run, Auto takes them (SeparableFixedTuning and
// SeparablePackedTuning say why).
const FilterVariant kFallbackOrder[] = {FilterVariant::GradientInt, FilterVariant::SeparablePacked,
                                        FilterVariant::SeparableFixed, FilterVariant::Separable,
                                        FilterVariant::Tiled, FilterVariant::TiledL2,
                                        FilterVariant::Constant, FilterVariant::Naive};

// Whether Auto may pick this variant for this format (the 8-bit integer kernels by the
// tuning's measured choice).
bool auto_takes(FilterVariant variant, PixelFormat format, const FilterSpec& spec) {
  if (variant == FilterVariant::GradientInt) return kernels::SeparableFixedTuning::kAutoPicksGradientInt;
  if (variant == FilterVariant::SeparableFixed) return kernels::SeparableFixedTuning::kAutoPicksSeparableFixed;
  if (variant == FilterVariant::SeparablePacked) {
    const int size = std::max(spec.width(), spec.height());
    return size <= kernels::SeparablePackedTuning::auto_max_size(format.channels, kernels::is_box_mask(spec));
  }
  return true;
}

}  // namespace

const char* to_string(FilterVariant variant) {
  switch (variant) {
    case FilterVariant::Auto: return "auto";
    case FilterVariant::Naive: return "naive";
    case FilterVariant::Constant: return "constant";
    case FilterVariant::Tiled: return "tiled";
    case FilterVariant::TiledL2: return "tiled_l2";
    case FilterVariant::Separable: return "separable";
    case FilterVariant::SeparableFixed: return "separable_fixed";
    case FilterVariant::GradientInt: return "gradient_int";
    case FilterVariant::SeparableFixedLean: return "separable_fixed_lean";
    case FilterVariant::SeparableFixedDeep: return "separable_fixed_deep";
    case FilterVariant::SeparableFixedSerial: return "separable_fixed_serial";
    case FilterVariant::GradientIntLean: return "gradient_int_lean";
    case FilterVariant::GradientIntDeep: return "gradient_int_deep";
    case FilterVariant::GradientIntSerial: return "gradient_int_serial";
    case FilterVariant::BoxStack: return "box_stack";
    case FilterVariant::BoxStackTwoPass: return "box_stack_two_pass";
    case FilterVariant::SeparablePacked: return "separable_packed";
    case FilterVariant::Decimated: return "decimated";
  }
  return "?";
}

const std::vector<FilterVariant>& all_filter_variants() {
  static const std::vector<FilterVariant> all = {
      FilterVariant::Auto,           FilterVariant::Naive,
      FilterVariant::Constant,       FilterVariant::Tiled,
      FilterVariant::TiledL2,        FilterVariant::Separable,
      FilterVariant::SeparableFixed, FilterVariant::GradientInt,
      FilterVariant::SeparableFixedLean, FilterVariant::SeparableFixedDeep,
      FilterVariant::SeparableFixedSerial, FilterVariant::GradientIntLean,
      FilterVariant::GradientIntDeep, FilterVariant::GradientIntSerial,
      FilterVariant::BoxStack,       FilterVariant::BoxStackTwoPass,
      FilterVariant::SeparablePacked, FilterVariant::Decimated};
  return all;
}

FilterVariant filter_variant_from_name(const std::string& name) {
  for (FilterVariant variant : all_filter_variants())
    if (name == to_string(variant)) return variant;
  throw Error(ErrorCode::InvalidArgument,
              "unknown variant '" + name +
                  "'; use auto, naive, constant, tiled, tiled_l2, separable, separable_fixed, gradient_int, "
                  "separable_fixed_lean, separable_fixed_deep, separable_fixed_serial, gradient_int_lean, "
                  "gradient_int_deep, gradient_int_serial, box_stack, box_stack_two_pass, separable_packed or decimated");
}

FilterVariant applied_variant(const FilterSpec& spec, PixelFormat format, FilterVariant requested) {
  // Auto: rank-1 masks cost 2(2r+1) taps a pixel separably instead of (2r+1)^2, and the
  // tile with its halo in shared memory beats reading taps through the cache.
  // Large Gaussians: decimated's and box_stack's costs do not grow with the radius
  // (DecimatedTuning, BoxStackTuning); decimated from sigma 5.3, box_stack below.
  // Only where the caller accepts an approximation (Accuracy::Fast): by default Auto
  // gives the exact result on every device.
  const bool may_approximate = requested == FilterVariant::Auto && spec.accuracy == Accuracy::Fast;
  if (may_approximate && kernels::decimated_preferred(spec)) return FilterVariant::Decimated;
  if (may_approximate && kernels::box_stack_preferred(spec)) return FilterVariant::BoxStack;
  // The large-sigma variants run only Gaussians they follow; anything else, exactly.
  if (kernel_of(requested) == FilterVariant::BoxStack || requested == FilterVariant::Decimated) {
    if (can_run(requested, spec, format)) return requested;
    requested = FilterVariant::Separable;
  }
  // A launch shape of an 8-bit kernel runs where its kernel runs, else falls back as that kernel.
  if (kernel_of(requested) != requested) {
    if (can_run(requested, spec, format)) return requested;
    requested = kernel_of(requested);
  }
  bool reached = requested == FilterVariant::Auto;
  for (FilterVariant variant : kFallbackOrder) {
    reached = reached || variant == requested;
    if (requested == FilterVariant::Auto && !auto_takes(variant, format, spec)) continue;
    if (reached && can_run(variant, spec, format)) return variant;
  }
  return FilterVariant::Naive;
}

void apply_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  FilterVariant variant, const ExecContext& ctx) {
  validate(spec, "filter");
  ops::apply_valid_filter(src, dst, spec, border, variant, ctx);
}

void ops::apply_valid_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                             FilterVariant variant, const ExecContext& ctx) {
  ops::check_pair("filter", src, dst);
  ops::check_device_pair("filter", src, dst);
  ops::check_no_overlap("filter", src, dst);
  const Border representable = ops::representable_border(border, src.format);
  const FilterVariant applied = applied_variant(spec, src.format, variant);
  switch (kernel_of(applied)) {
    case FilterVariant::BoxStack:
      kernels::launch_box_stack(src, dst, spec, representable,
                                applied == FilterVariant::BoxStackTwoPass ? kernels::BoxStackShape::TwoPass
                                                                          : kernels::BoxStackShape::Fused,
                                ctx);
      return;
    case FilterVariant::Decimated: kernels::launch_decimated(src, dst, spec, representable, ctx); return;
    case FilterVariant::GradientInt:
      kernels::launch_gradient_int(src, dst, spec, representable, shape_of(applied), ctx);
      return;
    case FilterVariant::SeparableFixed:
      kernels::launch_separable_fixed(src, dst, spec, representable, shape_of(applied), ctx);
      return;
    case FilterVariant::SeparablePacked: kernels::launch_separable_packed(src, dst, spec, representable, ctx); return;
    case FilterVariant::Separable:
      if (kernels::separable_tiled_fits(src.format, spec))
        kernels::launch_separable_tiled(src, dst, spec, representable, ctx);
      else
        kernels::launch_separable_two_pass(src, dst, spec, representable, ctx);
      return;
    case FilterVariant::Tiled: kernels::launch_filter2d_tiled(src, dst, spec, representable, ctx); return;
    case FilterVariant::TiledL2: kernels::launch_filter2d_tiled_l2(src, dst, spec, representable, ctx); return;
    case FilterVariant::Constant: kernels::launch_filter2d_constant(src, dst, spec, representable, ctx); return;
    default: break;
  }
  kernels::launch_filter2d_naive(src, dst, spec, representable, ctx);
}

}  // namespace gpufilter
