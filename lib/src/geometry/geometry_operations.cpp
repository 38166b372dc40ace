// The geometry ops in the registry: transpose, rotate, flip, crop, resize (their GPU side:
// gpu/geometry_gpu.cpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/geometry_cpu.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "gpufilter/ops.hpp"
#include "gpufilter/reference.hpp"
#include "geometry/geometry_variants.hpp"
#include "common/operations.hpp"

namespace gpufilter::ops {
namespace {

// The transpose names, then the bilinear kernels' names (any angle but quarter turns).
std::vector<std::string> rotate_variant_names() {
  std::vector<std::string> names = names_of(kTransposeVariants);
  for (const std::string& name : names_of(kRotateVariants)) names.push_back(name);
  return names;
}

ParamSpec block_param() {
  return choice_param("block",
                      "threads per block (x by y) of the naive variant: thin blocks read columns faster (the tiled "
                      "variants ignore it)",
                      {"32x8", "16x16", "8x32"}, "16x16");
}

// Input read once, output written once: the same number of pixels.
std::size_t same_bytes_twice(int width, int height, PixelFormat format, const ParamValues&) {
  return 2 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes();
}

ImageShape swapped(const ImageShape& input) { return ImageShape{input.height, input.width, input.format}; }

// Ops that interpolate sum in float on the GPU and in double in the reference: integer
// outputs within float error of a .5 boundary round the other way now and then (one
// level); 16-bit values keep 8 bits fewer of float's 24 below the point, so they reach
// a boundary ten times as often (as for the convolution filters); floats in [0, 1]
// differ by float rounding.
Tolerance interpolated_tolerance(PixelFormat format) {
  switch (format.type) {
    // One level where the exact value lies on or next to a half level: a scale whose
    // weights are exactly 1/2 (e.g. 600 -> 1000 x 300 -> 450: every third row) makes
    // such ties in up to a few percent of the samples, which float and double, or two
    // orders of the same sums, round either way (3.3% there, for both kernels).
    case ChannelType::U8: return Tolerance{1.0, 0.05};
    case ChannelType::U16: return Tolerance{1.0, 0.1};
    case ChannelType::F32: return Tolerance{1e-4};
  }
  return Tolerance{};
}

}  // namespace

bool is_rotate_variant_name(const std::string& name) {
  for (const auto& row : kRotateVariants)
    if (name == row.name) return true;
  return false;
}

TransposeOptions transpose_options(const ParamValues& values, const std::string& variant) {
  return TransposeOptions{transpose_variant_from_name(variant), block_shape_from_name(values.text("block"))};
}

int quarter_turn_angle(const ParamValues& values) { return static_cast<int>(values.number("angle")); }
bool is_quarter_turn(double angle) { return std::fmod(angle, 90.0) == 0.0; }

// --fill: one value for every channel, or one per channel with the last repeated.
std::array<double, 4> fill_of(const ParamValues& values) {
  std::array<double, 4> fill{0.0, 0.0, 0.0, 0.0};
  if (!values.has("fill")) return fill;
  const std::vector<double>& given = values.numbers("fill");
  for (std::size_t c = 0; c < fill.size(); ++c) fill[c] = given[std::min(c, given.size() - 1)];
  return fill;
}

Operation make_transpose_operation() {
  Operation op;
  op.name = "transpose";
  op.group = OperationGroup::Geometry;
  op.summary = "Swap rows and columns";
  op.params = {block_param()};
  op.formats = all_pixel_formats();
  op.variants = names_of(kTransposeVariants);
  op.default_variant = "fast_wide";
  op.output_shape = [](const ImageShape& input, const ParamValues&) { return swapped(input); };
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues&, const Border&) {
    reference::transpose(src, dst);
  };
  op.run_cpu = [](const ImageView& src, const ImageView& dst, const ParamValues&, const Border&) {
    cpu::transpose(src, dst);
  };
  op.tolerance = [](PixelFormat) { return 0.0; };  // pixels are moved, not computed
  op.bytes_moved = same_bytes_twice;
  return op;
}

Operation make_rotate_operation() {
  Operation op;
  op.name = "rotate";
  op.group = OperationGroup::Geometry;
  op.summary = "Rotate clockwise: multiples of 90 degrees exactly, other angles bilinearly";
  op.params = {number_param("angle", "clockwise rotation in degrees; multiples of 90 move pixels exactly", -360, 360, 90.0),
               block_param(),
               flag_param("expand", "other angles: enlarge the output to hold the whole rotated image"),
               numbers_param("fill", "other angles: the colour of uncovered pixels, one value for every channel or "
                             "one per channel (the last repeats), in the image's units",
                             1, 4, -65535, 65535, false, "V[,V..]", "0")};
  op.formats = all_pixel_formats();
  // Quarter turns run the transpose kernels; a half turn runs the flip kernels (naive_row
  // the naive flip, the tiled ones the vectorized flip, the fast ones the wide flip); other
  // angles run the bilinear kernels. Every name is valid for every angle: the bilinear
  // names run the default transpose (with --block) for quarter turns, the transpose
  // names the default bilinear kernel for other angles.
  op.variants = rotate_variant_names();
  op.default_variant = "fast_wide";
  op.output_shape = [](const ImageShape& input, const ParamValues& values) {
    const double angle = values.number("angle");
    if (is_quarter_turn(angle)) return quarter_turn_angle(values) % 180 != 0 ? swapped(input) : input;
    const Rect out = rotated_size(input.width, input.height, angle, values.number_or("expand", 0.0) != 0.0);
    return ImageShape{out.width, out.height, input.format};
  };
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    const double angle = values.number("angle");
    if (is_quarter_turn(angle))
      reference::rotate_quarter_turns(src, dst, quarter_turn_angle(values));
    else
      reference::rotate(src, dst, angle, fill_of(values));
  };
  op.run_cpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    const double angle = values.number("angle");
    if (is_quarter_turn(angle))
      cpu::rotate_quarter_turns(src, dst, quarter_turn_angle(values));
    else
      reference::rotate(src, dst, angle, fill_of(values));
  };
  // Quarter turns are exact (gpu_geometry_test checks them with no tolerance); other
  // angles interpolate.
  op.tolerance = interpolated_tolerance;
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues& values) {
    const double angle = values.number("angle");
    const Rect out = is_quarter_turn(angle) ? Rect{0, 0, width, height}
                                            : rotated_size(width, height, angle, values.number_or("expand", 0.0) != 0.0);
    return (static_cast<std::size_t>(width) * static_cast<std::size_t>(height) +
            static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height)) *
           format.pixel_bytes();
  };
  op.bench_params = {{"angle", 90}};
  op.test_params = {{"angle", 90}};
  return op;
}

Operation make_flip_operation() {
  Operation op;
  op.name = "flip";
  op.group = OperationGroup::Geometry;
  op.summary = "Mirror the image left-right (h), top-bottom (v) or both (a half turn)";
  op.params = {choice_param("axis", "h: mirror left-right, v: top-bottom, both: a half turn", {"h", "v", "both"}, "h")};
  op.formats = all_pixel_formats();
  op.variants = names_of(kFlipVariants);
  op.default_variant = "wide";
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    reference::flip(src, dst, flip_axis_from_name(values.text("axis")));
  };
  op.run_cpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    cpu::flip(src, dst, flip_axis_from_name(values.text("axis")));
  };
  op.tolerance = [](PixelFormat) { return 0.0; };
  op.bytes_moved = same_bytes_twice;
  op.bench_params = {{"axis", "h"}};
  op.test_params = {{"axis", "h"}};
  return op;
}

Operation make_crop_operation() {
  Operation op;
  op.name = "crop";
  op.group = OperationGroup::Geometry;
  op.summary = "Cut out a rectangle, given as ImageMagick's geometry WxH+X+Y";
  op.params = {text_param("geometry", "the rectangle: width x height + left + top, e.g. 640x480+10+20", "WxH+X+Y",
                          "required")};
  op.formats = all_pixel_formats();
  // The library's crop is a view; the op copies that view into dst.
  op.variants = {"view"};
  op.default_variant = "view";
  op.check = [](const ParamValues& values) {
    if (!values.has("geometry"))
      throw Error(ErrorCode::InvalidArgument, "crop: give the rectangle as --geometry WxH+X+Y (e.g. 640x480+10+20)");
    parse_geometry(values.text("geometry"));  // the syntax; output_shape judges it against the image
  };
  op.output_shape = [](const ImageShape& input, const ParamValues& values) {
    const Rect rect = parse_geometry(values.text("geometry"));
    // crop() on a view of the input's shape judges the rectangle against the image.
    ImageView probe{reinterpret_cast<void*>(static_cast<std::uintptr_t>(16)), input.width, input.height,
                    static_cast<std::size_t>(input.width) * input.format.pixel_bytes(), input.format};
    crop(probe, rect);
    return ImageShape{rect.width, rect.height, input.format};
  };
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    reference::copy(crop(src, parse_geometry(values.text("geometry"))), dst);
  };
  op.tolerance = [](PixelFormat) { return 0.0; };
  // The rectangle read once and written once.
  op.bytes_moved = [](int, int, PixelFormat format, const ParamValues& values) {
    const Rect rect = parse_geometry(values.text("geometry"));
    return 2 * static_cast<std::size_t>(rect.width) * static_cast<std::size_t>(rect.height) * format.pixel_bytes();
  };
  op.bench_params = {{"geometry", "3840x2160+0+0"}};  // a quarter of 8K, all of 4K: fits both bench sizes
  // Odd offsets and size; the conformance test leaves out inputs it does not fit (1x1).
  op.test_params = {{"geometry", "7x5+3+2"}};
  return op;
}

namespace {

// The output size from --size (fitted unless --exact) or --scale.
Rect resize_output(int width, int height, const ParamValues& values) {
  if (values.has("size")) {
    const std::vector<double>& size = values.numbers("size");
    return resize_fit(width, height, static_cast<int>(size[0]), static_cast<int>(size[1]),
                      values.number_or("exact", 0.0) != 0.0);
  }
  const double scale = values.number("scale");
  const auto scaled = [scale](int n) { return static_cast<int>(std::max(1.0, std::round(n * scale))); };
  return Rect{0, 0, scaled(width), scaled(height)};
}

// auto: area when either side shrinks (an average, no aliasing), linear otherwise.
ResizeFilter resize_filter(const ImageShape& input, const Rect& output, const ParamValues& values) {
  const std::string& name = values.text("filter");
  if (name != "auto") return resize_filter_from_name(name);
  return (output.width < input.width || output.height < input.height) ? ResizeFilter::Area : ResizeFilter::Linear;
}


}  // namespace

ResizeFilter resize_filter_for(const ImageView& src, const ImageView& dst, const ParamValues& values) {
  return resize_filter(ImageShape{src.width, src.height, src.format}, Rect{0, 0, dst.width, dst.height}, values);
}

Operation make_resize_operation() {
  Operation op;
  op.name = "resize";
  op.group = OperationGroup::Geometry;
  op.summary = "Resize to --size WxH (keeping the aspect ratio unless --exact) or by --scale S";
  ParamSpec size = numbers_param("size",
                                 "the box to fit the image in, width x height (exactly that size with --exact); "
                                 "P% for --scale P/100",
                                 2, 2, 1, 1 << 20, true, "WxH", "from --scale");
  size.percent_sets = "scale";
  op.params = {
      size,
      number_param("scale", "the factor for both sides (0.5: half size)", 1e-4, 1e4, std::nullopt, false, "from --size"),
      choice_param("filter",
                   "nearest, linear, cubic, lanczos (OpenCV's taps, no widening when shrinking) or area (the average "
                   "of the covered pixels); auto: area when shrinking, linear when enlarging",
                   {"auto", "nearest", "linear", "cubic", "area", "lanczos"}, "auto"),
      flag_param("exact", "take --size as the exact output size, even if it changes the aspect ratio"),
  };
  op.formats = all_pixel_formats();
  op.variants = names_of(kResizeVariants);
  op.default_variant = "fast";
  op.check = [](const ParamValues& values) {
    if (values.has("size") == values.has("scale"))
      throw Error(ErrorCode::InvalidArgument, "resize: give either --size WxH or --scale S");
    if (values.number_or("exact", 0.0) != 0.0 && !values.has("size"))
      throw Error(ErrorCode::InvalidArgument, "resize: --exact applies to --size, not --scale");
  };
  op.output_shape = [](const ImageShape& input, const ParamValues& values) {
    const Rect out = resize_output(input.width, input.height, values);
    return ImageShape{out.width, out.height, input.format};
  };
  op.run_reference = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    reference::resize(src, dst, resize_filter_for(src, dst, values));
  };
  op.run_cpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    cpu::resize(src, dst, resize_filter_for(src, dst, values));
  };
  op.tolerance = interpolated_tolerance;
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues& values) {
    const Rect out = resize_output(width, height, values);
    return (static_cast<std::size_t>(width) * static_cast<std::size_t>(height) +
            static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height)) *
           format.pixel_bytes();
  };
  op.bench_params = {{"scale", 0.5}, {"filter", "area"}};
  op.test_params = {{"scale", 0.6}};  // area at a ratio that is not a whole number
  return op;
}

GPUFILTER_REGISTER_OPERATION(make_transpose_operation);
GPUFILTER_REGISTER_OPERATION(make_rotate_operation);
GPUFILTER_REGISTER_OPERATION(make_flip_operation);
GPUFILTER_REGISTER_OPERATION(make_crop_operation);
GPUFILTER_REGISTER_OPERATION(make_resize_operation);

}  // namespace gpufilter::ops
