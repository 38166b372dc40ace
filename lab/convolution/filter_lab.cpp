// The convolution family's lab variants: the fixed-point separable kernel in every
// launch shape (superseded by separable_packed), gradient_int's and integer_3x3's other
// shapes, box_stack always in two passes, the tiled separable kernel, the strip's other
// columns on gray, 8-bit rank-1 masks on the tensor cores, the strip's vertical pass on
// them, and the 2-D tile on small masks. Each runs the spec the op makes of its
// parameters; where its kernel cannot run that spec, the library's next simpler variant
// runs it.
#include <functional>
#include <string>
#include <utility>

#include "convolution/box_stack_launch.hpp"
#include "convolution/filter2d_launch.hpp"
#include "convolution/gradient_int_launch.hpp"
#include "convolution/integer_3x3_launch.hpp"
#include "convolution/separable_launch.hpp"
#include "convolution/separable_strip_imma_launch.hpp"
#include "convolution/separable_strip_launch.hpp"
#include "convolution/separable_fixed_weights.hpp"
#include "gpufilter/filter_params.hpp"
#include "gpufilter/filters.hpp"
#include "lab/common/lab_checks.hpp"
#include "lab/convolution/fixed_shapes_launch.hpp"
#include "lab/convolution/separable_fixed_tuning.hpp"
#include "lab/convolution/separable_mma_launch.hpp"
#include "lab/lab_families.hpp"

namespace gpufilter::lab {
namespace {

// Whether the lab's kernel runs this spec on this format.
using Fits = std::function<bool(PixelFormat, const FilterSpec&)>;
// Launches it on a spec it runs (border representable in the format).
using Launch = std::function<void(const ImageView&, const ImageView&, const FilterSpec&, const Border&,
                                  const ExecContext&)>;

LabVariant filter_variant(std::string op, std::string name, std::string help, Fits fits, Launch launch,
                          FilterVariant fallback) {
  LabVariant v;
  v.op = op;
  v.variant = std::move(name);
  v.help = std::move(help);
  v.run = [op, fits, launch, fallback](const ImageView& src, const ImageView& dst, const ParamValues& params,
                                       const Border& border, const ExecContext& ctx) {
    check_same_shape(op.c_str(), src, dst);
    const FilterSpec spec = filter_spec_of(op, params);
    if (fits(src.format, spec))
      launch(src, dst, spec, representable(border, src.format), ctx);
    else
      apply_filter(src, dst, spec, border, fallback, ctx);
  };
  v.runs_itself = [op, fits](PixelFormat format, const ParamValues& params) {
    return fits(format, filter_spec_of(op, params));
  };
  return v;
}

struct Shape {
  const char* suffix;
  FixedShapeId id;
  const char* help;
};
const Shape kShapes[] = {
    {"", FixedShapeId::Tuned, "the library's launch shape"},
    {"_lean", FixedShapeId::Lean, "more warps, fewer registers"},
    {"_deep", FixedShapeId::Deep, "two rows of loads ahead of the math"},
    {"_serial", FixedShapeId::Serial, "each row's loads after the previous row's math"},
    {"_wide", FixedShapeId::Wide, "8 gray or 4 RGBA pixels a thread"},
};

// separable_fixed: horizontal pass first in 16-bit integer sums, masks up to 9x9
// (superseded by separable_packed).
void add_separable_fixed(std::vector<LabVariant>& list, const std::string& op, const ParamValues& test_params) {
  for (const Shape& shape : kShapes) {
    if (shape.id == FixedShapeId::Wide) continue;  // the 3x3 walks' shape
    const FixedShapeId id = shape.id;
    LabVariant v = filter_variant(
        op, std::string("separable_fixed") + shape.suffix,
        std::string("8-bit fixed-point separable, horizontal pass first: ") + shape.help, kernels::separable_fixed_fits,
        [id](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
             const ExecContext& ctx) { launch_separable_fixed(src, dst, spec, border, id, ctx); },
        FilterVariant::Separable);
    v.test_params = test_params;  // a mask it runs: up to 9x9, alpha separate
    list.push_back(std::move(v));
  }
}

void add_gradient_shapes(std::vector<LabVariant>& list) {
  for (const Shape& shape : kShapes) {
    if (shape.id == FixedShapeId::Tuned) continue;  // the library's own gradient_int
    const FixedShapeId id = shape.id;
    list.push_back(filter_variant(
        "edge", std::string("gradient_int") + shape.suffix, std::string("gradient_int: ") + shape.help,
        kernels::gradient_int_fits,
        [id](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
             const ExecContext& ctx) { launch_gradient_int_shape(src, dst, spec, border, id, ctx); },
        FilterVariant::GradientInt));
  }
}

// integer_3x3 in the shapes that keep the 3-row walk (not the serial one), tested on the
// parameters the library's integer_3x3 of the op is tested on (a mask it runs).
void add_integer_3x3_shapes(std::vector<LabVariant>& list, const std::string& op) {
  const ParamValues& test_params = find_operation(op)->test_params_for("integer_3x3");
  for (const Shape& shape : kShapes) {
    if (shape.id == FixedShapeId::Tuned || shape.id == FixedShapeId::Serial) continue;
    const FixedShapeId id = shape.id;
    LabVariant v = filter_variant(
        op, std::string("integer_3x3") + shape.suffix, std::string("integer_3x3: ") + shape.help,
        kernels::integer_3x3_fits,
        [id](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
             const ExecContext& ctx) { launch_integer_3x3_shape(src, dst, spec, border, id, ctx); },
        FilterVariant::Integer3x3);
    v.test_params = test_params;
    list.push_back(std::move(v));
  }
}

bool box_stack_runs(PixelFormat, const FilterSpec& spec) { return kernels::box_stack_fits(spec); }

void add_box_stack_two_pass(std::vector<LabVariant>& list) {
  LabVariant v = filter_variant(
      "blur", "box_stack_two_pass", "box_stack always in two passes through a scratch image", box_stack_runs,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
         const ExecContext& ctx) {
        kernels::launch_box_stack(src, dst, spec, border, kernels::BoxStackShape::TwoPass, ctx);
      },
      FilterVariant::Separable);
  // box_stack's contract: the same boxes, in another order of passes.
  v.tolerance = [](PixelFormat format) { return find_operation("blur")->tolerance_for(format, "box_stack"); };
  v.test_params = {{"sigma", 3.0}, {"sigma-y", 3.4}};  // 19x21: the smallest Gaussians it runs
  list.push_back(std::move(v));
}

// The tiled separable kernel, horizontal pass first in a 32-row tile, that `separable`
// ran before the strip kernel: the library keeps it as the strip's fallback on GPUs
// with less shared memory; here it runs by name, beside the strip in the same bench run.
void add_separable_tiled(std::vector<LabVariant>& list, const std::string& op) {
  list.push_back(filter_variant(
      op, "separable_tiled", "rank-1 masks in a 32-row tile, horizontal pass first (the strip's fallback)",
      kernels::separable_tiled_fits,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
         const ExecContext& ctx) { kernels::launch_separable_tiled(src, dst, spec, border, ctx); },
      FilterVariant::Separable));
}

// Both column kinds of the strip in float, by name, beside `separable` in the same bench
// run: pixel columns on gray and RGBA, element columns on gray and RGB
// (separable_strip_elements.cuh; `separable` runs RGB and 16- and 32-bit gray on them);
// and RGBA with staged stores. On 8 bits `separable` runs the vertical pass on the
// integer tensor cores instead (separable_strip_imma): RGBA from radius 4 (separate alpha
// 3), gray from radius 1, RGB from radius 5.
bool strip_on_pixels(PixelFormat format, const FilterSpec& spec) {
  return (format.channels == 1 || format.channels == 4) && kernels::separable_strip_pixels_fit(format, spec);
}

void add_strip_columns(std::vector<LabVariant>& list, const std::string& op) {
  list.push_back(filter_variant(
      op, "separable_strip_pixels", "gray and RGBA on the strip with a thread a pixel column, both passes in float",
      strip_on_pixels,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
         const ExecContext& ctx) { kernels::launch_separable_strip_by_pixels(src, dst, spec, border, ctx); },
      FilterVariant::Separable));
  list.push_back(filter_variant(
      op, "separable_strip_elements", "gray and RGB on the strip with a thread 4 elements",
      kernels::separable_strip_elements_fit,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
         const ExecContext& ctx) { kernels::launch_separable_strip_by_elements(src, dst, spec, border, ctx); },
      FilterVariant::Separable));
  // RGBA's pixel columns with the output staged in shared memory and stored a pixel a
  // thread, at every radius (separable_strip.cuh, kStaged): whether the stores' spread is
  // what keeps 8- and 16-byte pixels below radius 6 on the tiled kernel.
  list.push_back(filter_variant(
      op, "separable_strip_staged", "RGBA on the strip, each row's output stored a pixel a thread",
      kernels::separable_strip_staged_fit,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
         const ExecContext& ctx) { kernels::launch_separable_strip_staged(src, dst, spec, border, ctx); },
      FilterVariant::Separable));
}

// 8-bit rank-1 masks with both passes on the tensor cores (separable_mma.cuh): measured
// slower than the float strip that `separable` runs (docs/techniques/convolution.md,
// "8-bit masks on tensor cores"), kept to time beside it.
void add_separable_mma(std::vector<LabVariant>& list, const std::string& op) {
  list.push_back(filter_variant(
      op, "separable_mma", "8-bit rank-1 masks, both passes as half-precision products on the tensor cores",
      separable_mma_runs,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
         const ExecContext& ctx) { launch_separable_mma(src, dst, spec, border, ctx); },
      FilterVariant::Separable));
}

// The strip with its vertical pass, or both passes, on the 8-bit integer tensor cores
// (separable_strip_imma.cuh) at every radius it compiles; the library's strip takes it on
// RGBA8 from SeparableStripImmaTuning::library_min_radius only, in library_passes().
void add_separable_strip_imma(std::vector<LabVariant>& list, const std::string& op) {
  using kernels::ImmaPasses;
  const auto add = [&](const char* name, const char* help, ImmaPasses passes) {
    list.push_back(filter_variant(
        op, name, help,
        [passes](PixelFormat format, const FilterSpec& spec) {
          return kernels::separable_strip_imma_runs(format, spec, passes);
        },
        [passes](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                 const ExecContext& ctx) { kernels::launch_separable_strip_imma(src, dst, spec, border, ctx, passes); },
        FilterVariant::Separable));
  };
  add("separable_strip_imma",
      "RGBA8 and 8-bit gray on the strip, its vertical pass as 8-bit integer tensor-core products",
      ImmaPasses::Vertical);
  add("separable_strip_imma_both", "RGBA8 on the strip, both passes as 8-bit integer tensor-core products",
      ImmaPasses::Both);
}

// The 2-D tile with its halo in shared memory (seed strategy 1), which `tiled` runs
// above 5x5: here it runs the small masks too, beside the column walk that `tiled`
// runs them on, in the same bench run.
bool tile_runs(PixelFormat format, const FilterSpec& spec) {
  return kernels::filter2d_constant_fits(spec) && kernels::filter2d_tiled_fits(format, spec);
}

void add_tiled_shared(std::vector<LabVariant>& list, const std::string& op) {
  list.push_back(filter_variant(
      op, "tiled_shared", "every mask on the 2-D tile in shared memory (tiled's kernel above 5x5)", tile_runs,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
         const ExecContext& ctx) { kernels::launch_filter2d_tile(src, dst, spec, border, ctx); },
      FilterVariant::Tiled));
}

}  // namespace

std::vector<LabVariant> filter_lab_variants() {
  std::vector<LabVariant> list;
  add_separable_fixed(list, "blur", {{"sigma", 1.2}, {"sigma-y", 0.8}, {"alpha", "separate"}});  // 9x7
  add_box_stack_two_pass(list);
  add_separable_fixed(list, "box", {{"size", std::vector<double>{5, 3}}, {"alpha", "separate"}});
  add_gradient_shapes(list);
  for (const char* op : {"convolve", "emboss"}) add_integer_3x3_shapes(list, op);
  for (const char* op : {"blur", "box", "sharpen", "convolve"}) add_separable_tiled(list, op);
  for (const char* op : {"blur", "sharpen"}) add_strip_columns(list, op);
  for (const char* op : {"blur", "box", "sharpen"}) add_separable_mma(list, op);
  for (const char* op : {"blur", "box", "sharpen"}) add_separable_strip_imma(list, op);
  for (const char* op : {"convolve", "edge", "emboss"}) add_tiled_shared(list, op);
  return list;
}

}  // namespace gpufilter::lab
