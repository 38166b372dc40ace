// The convolution filters in the registry: each op turns its parameters into a
// FilterSpec (filter_masks.cpp), which the CPU reference runs, or the chosen GPU variant
// (their GPU side: gpu/filter_dispatch.cpp).
#include <array>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "filter/filter_cpu.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/filter_params.hpp"
#include "gpufilter/filters.hpp"
#include "gpufilter/reference.hpp"
#include "filter/filter_run.hpp"
#include "filter/filter_variants.hpp"
#include "common/operations.hpp"

namespace gpufilter::ops {
namespace {

ParamSpec alpha_param(AlphaMode default_mode) {
  return choice_param("alpha",
                      "how a 4-channel image's alpha takes part: premultiply (colours weighted by alpha, no dark "
                      "fringes), separate (every channel alone), keep (alpha copied from the input)",
                      {"premultiply", "separate", "keep"}, to_string(default_mode));
}

AlphaMode alpha_of(const ParamValues& values) { return alpha_mode_from_name(values.text("alpha")); }

// Which kinds of spec an op makes decides which variants it lists (filter_variants.cpp).
using VariantSet = FilterSpecKinds;

// What every filter op shares: formats, borders, variants, reference, tolerance, bytes.
Operation filter_operation(std::string name, std::string summary, std::vector<ParamSpec> params, VariantSet variants,
                           AlphaMode default_alpha, ToSpec to_spec) {
  Operation op;
  op.name = std::move(name);
  op.group = OperationGroup::Filters;
  op.summary = std::move(summary);
  op.params = std::move(params);
  op.params.push_back(alpha_param(default_alpha));
  op.formats = all_pixel_formats();
  op.variants = filter_variant_names(variants);
  op.default_variant = "auto";
  op.uses_border = true;
  op.run_reference = [to_spec](const ImageView& src, const ImageView& dst, const ParamValues& values,
                               const Border& border) { reference::apply_filter(src, dst, to_spec(values), border); };
  op.run_cpu = [to_spec](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border& border) {
    cpu::apply_filter(src, dst, to_spec(values), border);
  };
  // Building the spec is the whole check: masks, sizes and combinations of parameters.
  op.check = [to_spec](const ParamValues& values) { validate(to_spec(values), "filter"); };
  // The masks are centred (odd sizes): half of each side.
  op.reach = [to_spec](const ParamValues& values) {
    const FilterSpec spec = to_spec(values);
    return std::array<int, 2>{spec.width() / 2, spec.height() / 2};
  };
  // Integer formats: the GPU sums in float, the reference in double, so a value
  // within float error of a .5 boundary may round the other way: at most one level.
  // The share of such samples bounds how often: a truncating kernel misses in about
  // half of them. 16-bit values carry 8 bits more, so float error reaches .5
  // boundaries more often (the naive kernel's 2-D sums measured up to 3.5% of samples).
  op.tolerance = [](PixelFormat format) {
    switch (format.type) {
      case ChannelType::U8: return Tolerance{1.0, 0.01};
      case ChannelType::U16: return Tolerance{1.0, 0.1};
      case ChannelType::F32: break;
    }
    return Tolerance{1e-4};
  };
  // Premultiplied pixels under a mask with negative taps: the filtered alpha can come out
  // near 0 where the colours' sums do not, and dividing by it amplifies their float error.
  op.colours_divided_by_alpha = [to_spec](PixelFormat format, const ParamValues& values) {
    if (format.channels != 4) return false;
    const FilterSpec spec = to_spec(values);
    return spec.alpha == AlphaMode::Premultiply && !spec.convex;
  };
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues&) {
    return 2 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes();
  };
  return op;
}

// ---- blur ----------------------------------------------------------------------------

FilterSpec blur_spec_of(const ParamValues& values) {
  GaussianParams params;
  if (values.has("geometry")) {
    // ImageMagick's RADIUSxSIGMA: radius 0 is automatic.
    if (values.has("sigma") || values.has("radius"))
      throw Error(ErrorCode::InvalidArgument, "blur: give --geometry or --sigma/--radius, not both");
    const std::vector<double>& geometry = values.numbers("geometry");
    params.radius = static_cast<int>(geometry[0]);
    params.sigma = geometry[1];
  } else {
    params.sigma = values.number_or("sigma", 2.0);
    params.radius = static_cast<int>(values.number_or("radius", 0.0));
  }
  params.sigma_y = values.number_or("sigma-y", 0.0);
  params.alpha = alpha_of(values);
  params.accuracy = accuracy_from_name(values.text("accuracy"));
  return gaussian_spec(params);
}

// ---- box -----------------------------------------------------------------------------

FilterSpec box_spec_of(const ParamValues& values) {
  BoxParams params;
  if (values.has("size") && values.has("radius"))
    throw Error(ErrorCode::InvalidArgument, "box: give --size or --radius, not both");
  if (values.has("radius")) {
    params.width = 2 * static_cast<int>(values.number("radius")) + 1;
  } else if (values.has("size")) {
    const std::vector<double>& size = values.numbers("size");
    params.width = static_cast<int>(size[0]);
    params.height = size.size() > 1 ? static_cast<int>(size[1]) : 0;
  }
  params.alpha = alpha_of(values);
  return box_spec(params);
}

// ---- sharpen -------------------------------------------------------------------------

FilterSpec sharpen_spec_of(const ParamValues& values) {
  SharpenParams params;
  params.sigma = values.number("sigma");
  params.radius = static_cast<int>(values.number_or("radius", 0.0));
  params.amount = values.number("amount");
  params.threshold = values.number("threshold");
  params.alpha = alpha_of(values);
  return sharpen_spec(params);
}

// ---- edge ----------------------------------------------------------------------------

FilterSpec edge_spec_of(const ParamValues& values) {
  EdgeParams params;
  params.op = edge_operator_from_name(values.text("operator"));
  params.direction = edge_direction_from_name(values.text("direction"));
  params.scale = values.number("scale");
  params.alpha = alpha_of(values);
  return edge_spec(params);
}

// ---- emboss --------------------------------------------------------------------------

FilterSpec emboss_spec_of(const ParamValues& values) {
  EmbossParams params;
  params.light = values.text("light");
  params.strength = values.number("strength");
  params.alpha = alpha_of(values);
  return emboss_spec(params);
}

// ---- convolve ------------------------------------------------------------------------

std::string read_mask_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw Error(ErrorCode::InvalidArgument, "convolve: cannot read the mask file '" + path + "'");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

FilterSpec convolve_spec_of(const ParamValues& values) {
  if (values.has("kernel") == values.has("kernel-file"))
    throw Error(ErrorCode::InvalidArgument, "convolve: give the mask with --kernel or --kernel-file (one of them)");
  ConvolveParams params;
  params.mask = parse_mask(values.has("kernel") ? values.text("kernel") : read_mask_file(values.text("kernel-file")));
  params.normalize = values.number("normalize") != 0.0;
  params.bias = values.number("bias");
  params.alpha = alpha_of(values);
  return convolve_spec(params);
}

// blur's large-sigma variants approximate the Gaussian (sigma >= 3; smaller ones run
// separable), so their contracts are the approximations', not float rounding's
// (docs/techniques/convolution.md, "Large sigma"):
// - decimated: Gaussian decimation, residual and interpolation. tests/decimated_plan_test.cpp
//   bounds the step response within 0.75 levels of 255; with the corners where both
//   axes' errors add and the output's rounding, 2 levels on u8 and 0.8% of the range.
//   This is the fast contract: with --accuracy fast, Auto takes decimated where both axes
//   decimate by 3 or more (sigma >= 4.02, DecimatedTuning::kAutoMinFactor) and runs the
//   exact kernels below that.
// - box_stack: stacked box filters, by name only. Its step response is within 2.8 levels
//   of 255 (tests/box_stack_plan_test.cpp), but where two edges meet (a corner, the
//   border of a constant-border image) both axes' errors add: 6 levels on u8 and 2.4% of
//   the range on u16 and f32.

// `levels` on u8, `fraction` of the range on u16 and f32.
Tolerance range_tolerance(PixelFormat format, double levels, double fraction) {
  switch (format.type) {
    case ChannelType::U8: return Tolerance{levels};
    case ChannelType::U16: return Tolerance{fraction * 65535.0};
    case ChannelType::F32: break;
  }
  return Tolerance{fraction};
}

void add_large_sigma_variants(Operation& op) {
  op.variant_tolerance[to_string(FilterVariant::BoxStack)] = [](PixelFormat format) {
    return range_tolerance(format, 6.0, 0.024);
  };
  const auto decimated_tolerance = [](PixelFormat format) { return range_tolerance(format, 2.0, 0.008); };
  op.variant_tolerance[to_string(FilterVariant::Decimated)] = decimated_tolerance;
  op.fast_tolerance = decimated_tolerance;  // --accuracy fast: Auto may take decimated
}

// The 8-bit integer kernels run masks up to 9x9 (the lab's separable_fixed; 13x13 for
// separable_packed) and, on 4 channels, alpha "separate" (separable_packed premultiplied
// too, which the auto cases reach with the default alpha): their conformance cases take
// `params`, which reach every one of them.
void add_8bit_test_params(Operation& op, const ParamValues& params) {
  for (const std::string& variant : op.variants)
    if (variant.rfind("separable_fixed", 0) == 0 || variant == "separable_packed") op.variant_test_params[variant] = params;
}

}  // namespace

Operation make_gaussian_operation() {
  const double max_sigma = GaussianParams::kMaxSigma;
  const double max_radius = GaussianParams::kMaxRadius;
  Operation op = filter_operation(
      "blur", "Gaussian blur (any sigma; anisotropic with --sigma-y)",
      {number_param("sigma", "standard deviation of the Gaussian in x (and y), in pixels", GaussianParams::kMinSigma,
                    max_sigma, std::nullopt, false, "2"),
       number_param("radius", "taps on each side of the centre (mask width 2*radius+1); 0: ceil(3*sigma)", 0.0,
                    max_radius, std::nullopt, true, "ceil(3*sigma)"),
       number_param("sigma-y", "standard deviation in y, for an anisotropic blur", GaussianParams::kMinSigma, max_sigma,
                    std::nullopt, false, "sigma"),
       numbers_param("geometry", "ImageMagick's RADIUSxSIGMA (radius 0: automatic), instead of --sigma/--radius", 2, 2,
                     0.0, max_radius, false, "RxS", "none"),
       choice_param("accuracy",
                    "exact: within 1 level of 8 bits of the exact Gaussian, on every device; fast: from sigma 4 the "
                    "GPU may approximate it at a cost that does not grow with sigma (within 2 levels)",
                    {"exact", "fast"}, "exact")},
      VariantSet{true, true, false, true}, AlphaMode::Premultiply, blur_spec_of);
  op.bench_params = {{"sigma", 1.0}, {"radius", 2.0}, {"alpha", "separate"}};  // 5x5, as NPP's 5x5 Gaussian
  op.test_params = {{"sigma", 1.5}, {"sigma-y", 0.9}};  // 11x7: wider than the 1x1 and 17x13 images
  add_large_sigma_variants(op);
  add_8bit_test_params(op, {{"sigma", 1.2}, {"sigma-y", 0.8}, {"alpha", "separate"}});  // 9x7
  // Sigma 3 and more on both axes, 19x21: the smallest masks box_stack and decimated run.
  for (const char* variant : {"box_stack", "decimated"})
    op.variant_test_params[variant] = {{"sigma", 3.0}, {"sigma-y", 3.4}};
  return op;
}

Operation make_box_operation() {
  Operation op = filter_operation(
      "box", "Box (mean) filter",
      {numbers_param("size", "mask width and height, odd (one number: square)", 1, 2, 1.0, BoxParams::kMaxSize, true,
                     "W[xH]", "3"),
       number_param("radius", "instead of --size: a square of 2*radius+1", 0.0, GaussianParams::kMaxRadius,
                    std::nullopt, true, "none")},
      VariantSet{true, true, false}, AlphaMode::Premultiply, box_spec_of);
  op.bench_params = {{"size", std::vector<double>{5}}, {"alpha", "separate"}};
  op.test_params = {{"size", std::vector<double>{5, 3}}};
  add_8bit_test_params(op, {{"size", std::vector<double>{5, 3}}, {"alpha", "separate"}});
  return op;
}

Operation make_sharpen_operation() {
  Operation op = filter_operation(
      "sharpen", "Unsharp mask: adds the detail that a Gaussian blur removes",
      {number_param("sigma", "standard deviation of the blur the detail is measured against", GaussianParams::kMinSigma,
                    GaussianParams::kMaxSigma, 1.0),
       number_param("radius", "taps on each side of the centre; 0: ceil(3*sigma)", 0.0, GaussianParams::kMaxRadius,
                    std::nullopt, true, "ceil(3*sigma)"),
       number_param("amount", "how much of the detail is added (1: 100%)", 0.0, SharpenParams::kMaxAmount, 1.0),
       number_param("threshold", "details smaller than this fraction of the range are left alone", 0.0, 1.0, 0.0)},
      VariantSet{true, false, false}, AlphaMode::Premultiply, sharpen_spec_of);
  op.bench_params = {{"sigma", 1.0}, {"radius", 2.0}, {"alpha", "separate"}};
  // The default alpha (premultiplied: its colours are compared premultiplied, see
  // colours_divided_by_alpha) and no threshold: a threshold is a step, which turns a float
  // rounding difference into a large one (tests/gpu_filters_test.cpp covers it).
  op.test_params = {{"sigma", 1.2}, {"amount", 1.5}};
  return op;
}

Operation make_edge_operation() {
  Operation op = filter_operation(
      "edge", "Edges: gradient magnitude (Sobel, Scharr, Prewitt) or Laplacian",
      {choice_param("operator", "the derivative mask", {"sobel", "scharr", "prewitt", "laplacian"}, "sobel"),
       choice_param("direction", "x: d/dx, y: d/dy, both: the gradient's magnitude (integer outputs saturate, "
                                 "float keeps the sign)",
                    {"x", "y", "both"}, "both"),
       number_param("scale", "multiplies the result", -1e6, 1e6, 1.0)},
      VariantSet{true, false, true, false, true}, AlphaMode::Keep, edge_spec_of);
  op.bench_params = {{"operator", "sobel"}};
  op.test_params = {{"operator", "scharr"}, {"scale", 0.25}};
  // One derivative is one rank-1 mask, which separable runs (the magnitude takes two).
  op.variant_test_params["separable"] = {{"operator", "scharr"}, {"direction", "x"}, {"scale", 0.25}};
  // The Laplacian: one 3x3 mask of integer weights, which integer_3x3 runs on 8 bits.
  op.variant_test_params["integer_3x3"] = {{"operator", "laplacian"}};
  return op;
}

Operation make_emboss_operation() {
  Operation op = filter_operation(
      "emboss", "Emboss: relief lit from one side",
      {choice_param("light", "where the light comes from", {"n", "ne", "e", "se", "s", "sw", "w", "nw"}, "nw"),
       number_param("strength", "depth of the relief (0: unchanged)", 0.0, 10.0, 1.0)},
      VariantSet{false, false, false, false, true}, AlphaMode::Keep, emboss_spec_of);
  op.test_params = {{"light", "ne"}, {"strength", 1.5}};
  op.variant_test_params["integer_3x3"] = {{"light", "se"}, {"strength", 2.0}};  // integer weights
  return op;
}

Operation make_convolve_operation() {
  Operation op = filter_operation(
      "convolve", "A custom mask (applied as a correlation, like cv::filter2D)",
      {text_param("kernel", "the mask: rows separated by ';', numbers by spaces, e.g. \"0 -1 0; -1 5 -1; 0 -1 0\"",
                  "ROWS", "none"),
       text_param("kernel-file", "a text file holding the mask (rows on lines; '#' starts a comment)", "PATH", "none"),
       flag_param("normalize", "divide the weights by their sum"),
       number_param("bias", "added to every output, as a fraction of the range (0.5: mid-grey)", -1.0, 1.0, 0.0)},
      VariantSet{true, false, false, false, true}, AlphaMode::Premultiply, convolve_spec_of);
  op.bench_params = {{"kernel", "0 -1 0; -1 5 -1; 0 -1 0"}, {"alpha", "separate"}};
  // Rank 1 (every row a multiple of the first), 3 wide and 5 tall, asymmetric, with a bias.
  // The default alpha, as sharpen's test_params.
  op.test_params = {{"kernel", "1 2 -1; 2 4 -2; 0.5 1 -0.5; 1 2 -1; -1 -2 1"}, {"bias", 0.1}, {"normalize", 0.0}};
  // 3x3 integer weights and a bias of whole levels (51), premultiplied as by default.
  op.variant_test_params["integer_3x3"] = {{"kernel", "0 -1 0; -1 5 -1; 0 -1 0"}, {"bias", 0.2}};
  return op;
}

GPUFILTER_REGISTER_OPERATION(make_gaussian_operation);
GPUFILTER_REGISTER_OPERATION(make_box_operation);
GPUFILTER_REGISTER_OPERATION(make_sharpen_operation);
GPUFILTER_REGISTER_OPERATION(make_edge_operation);
GPUFILTER_REGISTER_OPERATION(make_emboss_operation);
GPUFILTER_REGISTER_OPERATION(make_convolve_operation);

}  // namespace gpufilter::ops

namespace gpufilter {

std::optional<ops::FilterOpSpec> ops::filter_op_spec(const std::string& op) {
  using ops::SpecInputs;
  const struct {
    const char* op;
    FilterOpSpec spec;
  } kSpecs[] = {{"blur", {blur_spec_of, SpecInputs::Params}},       {"box", {box_spec_of, SpecInputs::Params}},
                {"sharpen", {sharpen_spec_of, SpecInputs::Params}}, {"edge", {edge_spec_of, SpecInputs::Params}},
                {"emboss", {emboss_spec_of, SpecInputs::Params}},
                {"convolve", {convolve_spec_of, SpecInputs::ParamsAndFiles}}};  // its mask may be a file
  for (const auto& entry : kSpecs)
    if (op == entry.op) return entry.spec;
  return std::nullopt;
}

FilterSpec filter_spec_of(const std::string& op, const ParamValues& values) {
  const std::optional<ops::FilterOpSpec> maker = ops::filter_op_spec(op);
  if (!maker) throw Error(ErrorCode::InvalidArgument, "'" + op + "' is not a convolution op");
  FilterSpec spec = maker->to_spec(values);
  validate(spec, op);
  return spec;
}

}  // namespace gpufilter
