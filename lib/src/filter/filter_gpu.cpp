// Which kernel runs a FilterSpec: the variant asked for where it can, else the next
// simpler one; for Auto, the fastest that can (docs/techniques/convolution.md). And the
// filter ops' GPU side.
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/filters.hpp"
#include "kernels/common/recent_plans.hpp"
#include "kernels/convolution/box_stack_launch.hpp"
#include "kernels/convolution/decimated_launch.hpp"
#include "kernels/convolution/filter2d_launch.hpp"
#include "kernels/convolution/filter2d_tuning.hpp"
#include "kernels/convolution/gradient_int_launch.hpp"
#include "kernels/convolution/gradient_int_tuning.hpp"
#include "kernels/convolution/integer_3x3_launch.hpp"
#include "kernels/convolution/integer_3x3_tuning.hpp"
#include "kernels/convolution/separable_fixed_weights.hpp"
#include "kernels/convolution/separable_launch.hpp"
#include "kernels/convolution/separable_packed_launch.hpp"
#include "kernels/convolution/separable_packed_tuning.hpp"
#include "kernels/convolution/separable_packed_weights.hpp"
#include "kernels/convolution/separable_strip_launch.hpp"
#include "kernels/convolution/separable_tuning.hpp"
#include "filter/filter_run.hpp"
#include "common/op_checks.hpp"
#include "common/operations.hpp"

namespace gpufilter {
namespace {

bool one_rank1_mask(const FilterSpec& spec) { return spec.is_separable() && spec.masks.size() == 1; }

bool can_run(FilterVariant variant, const FilterSpec& spec, PixelFormat format) {
  switch (variant) {
    case FilterVariant::Naive: return true;
    case FilterVariant::Constant:
    case FilterVariant::TiledL2: return kernels::filter2d_constant_fits(spec);
    case FilterVariant::Tiled: return kernels::filter2d_tiled_runs(format, spec);
    case FilterVariant::Separable:
      return one_rank1_mask(spec) && spec.width() <= kernels::SeparableTuning::kMaxTaps &&
             spec.height() <= kernels::SeparableTuning::kMaxTaps;
    case FilterVariant::SeparablePacked: return kernels::separable_packed_fits(format, spec);
    case FilterVariant::GradientInt: return kernels::gradient_int_fits(format, spec);
    case FilterVariant::Integer3x3: return kernels::integer_3x3_fits(format, spec);
    case FilterVariant::BoxStack: return kernels::box_stack_fits(spec);
    case FilterVariant::Decimated: return kernels::decimated_fits(spec);
    case FilterVariant::Auto: return true;
    default: break;
  }
  return false;
}

// Simplest last: each variant falls back to the one after it. The 8-bit integer
// kernels come first: where they run, Auto takes them (GradientIntTuning,
// Integer3x3Tuning and SeparablePackedTuning say why).
const FilterVariant kFallbackOrder[] = {FilterVariant::GradientInt, FilterVariant::Integer3x3,
                                        FilterVariant::SeparablePacked, FilterVariant::Separable,
                                        FilterVariant::Tiled,           FilterVariant::TiledL2,
                                        FilterVariant::Constant,        FilterVariant::Naive};

// Whether Auto may pick this variant for this format (the 8-bit integer kernels, and
// the separable strip against the column walk, by the tunings' measured choices).
bool auto_takes(FilterVariant variant, PixelFormat format, const FilterSpec& spec) {
  if (variant == FilterVariant::GradientInt) return kernels::GradientIntTuning::kAutoPicks;
  if (variant == FilterVariant::Integer3x3) return kernels::Integer3x3Tuning::kAutoPicks;
  if (variant == FilterVariant::SeparablePacked) {
    using Tuning = kernels::SeparablePackedTuning;
    const bool box = kernels::is_box_mask(spec);
    const int size = std::max(spec.width(), spec.height());
    const bool premultiplied = format.channels == 4 && spec.alpha == AlphaMode::Premultiply;
    return size <= Tuning::auto_max_size(box) && (!premultiplied || Tuning::auto_takes_premultiplied(box));
  }
  // Small rank-1 masks: the column walk (`tiled`) where it measured faster.
  if (variant == FilterVariant::Separable)
    return !(kernels::filter2d_walk_fits(spec) &&
             kernels::Filter2dWalkTuning::auto_prefers_to_separable(
                 static_cast<int>(format.channel_bytes()), format.channels));
  return true;
}

}  // namespace

FilterVariant applied_variant(const FilterSpec& spec, PixelFormat format, FilterVariant requested) {
  // Auto: rank-1 masks cost 2(2r+1) taps a pixel separably instead of (2r+1)^2, and the
  // tile with its halo in shared memory beats reading taps through the cache.
  // Large Gaussians: decimated's cost does not grow with the radius (DecimatedTuning):
  // from a factor of 3 (sigma 4.02) it beats the exact kernels. Only where the caller
  // accepts an approximation (Accuracy::Fast); by default Auto gives the exact result on
  // every device. box_stack is never Auto's: where edges meet (corners, a constant
  // border) it strays 6 levels, beyond the fast contract of 2 that decimated keeps.
  const bool may_approximate = requested == FilterVariant::Auto && spec.accuracy == Accuracy::Fast;
  if (may_approximate && kernels::decimated_preferred(spec)) return FilterVariant::Decimated;
  // The large-sigma variants run only Gaussians they follow; anything else, exactly.
  if (requested == FilterVariant::BoxStack || requested == FilterVariant::Decimated) {
    if (can_run(requested, spec, format)) return requested;
    requested = FilterVariant::Separable;
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

// The filters' entry points: each op's spec (filter_masks.cpp), checked and run.
void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& params, const Border& border,
                   FilterVariant variant, const ExecContext& ctx) {
  apply_filter(src, dst, gaussian_spec(params), border, variant, ctx);
}
void box_filter(const ImageView& src, const ImageView& dst, const BoxParams& params, const Border& border,
                FilterVariant variant, const ExecContext& ctx) {
  apply_filter(src, dst, box_spec(params), border, variant, ctx);
}
void sharpen(const ImageView& src, const ImageView& dst, const SharpenParams& params, const Border& border,
             FilterVariant variant, const ExecContext& ctx) {
  apply_filter(src, dst, sharpen_spec(params), border, variant, ctx);
}
void edge_detect(const ImageView& src, const ImageView& dst, const EdgeParams& params, const Border& border,
                 FilterVariant variant, const ExecContext& ctx) {
  apply_filter(src, dst, edge_spec(params), border, variant, ctx);
}
void emboss(const ImageView& src, const ImageView& dst, const EmbossParams& params, const Border& border,
            FilterVariant variant, const ExecContext& ctx) {
  apply_filter(src, dst, emboss_spec(params), border, variant, ctx);
}
void convolve(const ImageView& src, const ImageView& dst, const ConvolveParams& params, const Border& border,
              FilterVariant variant, const ExecContext& ctx) {
  apply_filter(src, dst, convolve_spec(params), border, variant, ctx);
}

void ops::apply_valid_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                             FilterVariant variant, const ExecContext& ctx) {
  ops::check_pair("filter", src, dst);
  ops::check_device_pair("filter", src, dst);
  ops::check_no_overlap("filter", src, dst);
  const Border representable = ops::representable_border(border, src.format);
  const FilterVariant applied = applied_variant(spec, src.format, variant);
  switch (applied) {
    case FilterVariant::BoxStack:
      kernels::launch_box_stack(src, dst, spec, representable, kernels::BoxStackShape::Fused, ctx);
      return;
    case FilterVariant::Decimated: kernels::launch_decimated(src, dst, spec, representable, ctx); return;
    case FilterVariant::GradientInt: kernels::launch_gradient_int(src, dst, spec, representable, ctx); return;
    case FilterVariant::Integer3x3: kernels::launch_integer_3x3(src, dst, spec, representable, ctx); return;
    case FilterVariant::SeparablePacked: kernels::launch_separable_packed(src, dst, spec, representable, ctx); return;
    case FilterVariant::Separable:
      if (kernels::separable_strip_fits(src.format, spec))
        kernels::launch_separable_strip(src, dst, spec, representable, ctx);
      else if (kernels::separable_tiled_fits(src.format, spec))
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

namespace {

// The GPU run of a filter op: the spec made from the parameters, and checked, once for
// the last few parameter sets. A large Gaussian's dense mask (sigma 30: 181 x 181
// weights; sigma 100: 601 x 601) is slow to build and check on the host, and the GPU
// waits for the launch meanwhile (docs/techniques/convolution.md, "The variants"). Specs
// that read files are made afresh every call (the file may change between calls of a running server).
std::function<void(const ImageView&, const ImageView&, const ParamValues&, const Border&, const std::string&,
                   const ExecContext&)>
gpu_run(ops::ToSpec to_spec, ops::SpecInputs inputs) {
  using Specs = kernels::RecentPlans<std::shared_ptr<const FilterSpec>, 8, ParamValues>;
  auto recent = inputs == ops::SpecInputs::Params ? std::make_shared<Specs>() : nullptr;
  return [to_spec, recent](const ImageView& src, const ImageView& dst, const ParamValues& values,
                           const Border& border, const std::string& variant, const ExecContext& ctx) {
    const FilterVariant chosen = filter_variant_from_name(variant);
    if (!recent) {
      apply_filter(src, dst, to_spec(values), border, chosen, ctx);
      return;
    }
    const std::shared_ptr<const FilterSpec> spec = recent->get(values, [&](const ParamValues& v) {
      auto made = std::make_shared<const FilterSpec>(to_spec(v));
      validate(*made, "filter");
      return made;
    });
    ops::apply_valid_filter(src, dst, *spec, border, chosen, ctx);
  };
}

// Every op filter_operations.cpp registered with a spec maker: the GPU run, and the
// kernel each variant applies.
void bind_filters(Operation& op) {
  const std::optional<ops::FilterOpSpec> spec = ops::filter_op_spec(op.name);
  if (!spec) return;
  op.run_gpu = gpu_run(spec->to_spec, spec->inputs);
  op.applied_variant = [to_spec = spec->to_spec](PixelFormat format, const ParamValues& values,
                                                 const std::string& variant) {
    return std::string(to_string(applied_variant(to_spec(values), format, filter_variant_from_name(variant))));
  };
}

GPUFILTER_BIND_GPU_FAMILY(bind_filters);

}  // namespace
}  // namespace gpufilter
