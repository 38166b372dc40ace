// The point ops in the registry: invert, brightness, contrast, gamma, levels. Each
// shares formats, variants, the --channels parameter and bytes moved; the math of
// each is in point_ops.hpp and in the op's summary (their GPU side: gpu/point_gpu.cpp).
#include <array>

#include "point/point_cpu.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/point_ops.hpp"
#include "gpufilter/reference.hpp"
#include "common/operations.hpp"
#include "point/point_variants.hpp"

namespace gpufilter::ops {
namespace {

ParamSpec channels_param() {
  ParamSpec spec = text_param("channels",
                              "the channels that change, letters from rgba as ImageMagick's -channel (a gray image's "
                              "channel counts as r, g and b); the others are copied",
                              "LETTERS", "rgb");
  spec.default_value = std::string("rgb");
  return spec;
}

using ReferenceRun = void (*)(const ImageView&, const ImageView&, const ParamValues&);

Operation point_operation(std::string name, std::string summary, std::vector<ParamSpec> params,
                          ReferenceRun reference_run, Tolerance u16, Tolerance f32) {
  Operation op;
  op.name = std::move(name);
  op.group = OperationGroup::Pixels;
  op.summary = std::move(summary);
  op.params = std::move(params);
  op.params.push_back(channels_param());
  op.formats = all_pixel_formats();
  op.variants = names_of(kPointVariants);
  op.default_variant = "vectorized";
  op.reach = [](const ParamValues&) { return std::array<int, 2>{0, 0}; };  // each pixel alone
  op.run_reference = [reference_run](const ImageView& src, const ImageView& dst, const ParamValues& values,
                                     const Border&) { reference_run(src, dst, values); };
  op.run_cpu = [reference_run](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    cpu::point_op(src, dst, [&](const ImageView& in, const ImageView& out) { reference_run(in, out, values); });
  };
  op.tolerance = [u16, f32](PixelFormat format) {
    switch (format.type) {
      case ChannelType::U8: return Tolerance{0.0};  // exact: arithmetic or a table computed in double
      case ChannelType::U16: return u16;
      case ChannelType::F32: break;
    }
    return f32;
  };
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues&) {
    return 2 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * format.pixel_bytes();
  };
  return op;
}

ParamSpec range_param(const char* name, const char* help) {
  ParamSpec spec = numbers_param(name, help, 2, 2, 0.0, 1.0, false, "LO,HI", "0,1");
  spec.default_value = std::vector<double>{0.0, 1.0};
  return spec;
}

// u16 and f32 results computed in float on the GPU against the reference's double:
// a u16 value within float error of a .5 boundary rounds the other way (one level).
// powf's few ulps are up to 0.02 of a level near 65535, so a few percent of samples
// may round the other way; the bound is the filters' u16 share.
const Tolerance kComputedU16{1.0, 0.1};
const Tolerance kComputedF32{1e-5};

}  // namespace

PointChannels channels_of(const ParamValues& values) {
  return values.has("channels") ? PointChannels::parse(values.text("channels")) : PointChannels{};
}

namespace {

double required(const ParamValues& values, const char* op) {
  if (!values.has("value")) throw Error(ErrorCode::InvalidArgument, std::string(op) + ": give --value");
  return values.number("value");
}

}  // namespace

BrightnessParams brightness_of(const ParamValues& v) { return {required(v, "brightness"), channels_of(v)}; }
ContrastParams contrast_of(const ParamValues& v) { return {required(v, "contrast"), channels_of(v)}; }
GammaParams gamma_of(const ParamValues& v) { return {required(v, "gamma"), channels_of(v)}; }
LevelsParams levels_of(const ParamValues& v) {
  LevelsParams p;
  if (v.has("in")) p.in_lo = v.numbers("in")[0], p.in_hi = v.numbers("in")[1];
  if (v.has("out")) p.out_lo = v.numbers("out")[0], p.out_hi = v.numbers("out")[1];
  p.channels = channels_of(v);
  return p;
}

std::vector<Operation> make_point_operations() {
  std::vector<Operation> ops;
  {
    Operation op = point_operation(
        "invert", "Negate: y = M - x (M: 255, 65535, or 1 for f32); exact", {},
        [](const ImageView& s, const ImageView& d, const ParamValues& v) {
          reference::invert(s, d, channels_of(v));
        },
        Tolerance{0.0}, Tolerance{0.0});
    op.check = [](const ParamValues& v) { channels_of(v); };
    op.test_params = {};
    op.bench_params = {};
    ops.push_back(std::move(op));
  }
  {
    Operation op = point_operation(
        "brightness",
        "Add value*M to every sample, saturated (integer formats: round(value*M) whole levels; exact)",
        {number_param("value", "the shift as a fraction of the range, -1..1", -1.0, 1.0, std::nullopt, false,
                      "required")},
        [](const ImageView& s, const ImageView& d, const ParamValues& v) {
          reference::brightness(s, d, brightness_of(v));
        },
        Tolerance{0.0}, Tolerance{1e-6});
    op.check = [](const ParamValues& v) { validate(brightness_of(v)); };
    op.test_params = {{"value", 0.3}, {"channels", "rb"}};  // rb: a mask that breaks up every pixel
    op.bench_params = {{"value", 0.1}};
    ops.push_back(std::move(op));
  }
  {
    Operation op = point_operation(
        "contrast", "y = (x - M/2)*value + M/2, saturated and rounded (value 0: flat grey, 1: unchanged)",
        {number_param("value", "the factor about mid-grey, 0..10", 0.0, 10.0, std::nullopt, false, "required")},
        [](const ImageView& s, const ImageView& d, const ParamValues& v) {
          reference::contrast(s, d, contrast_of(v));
        },
        kComputedU16, kComputedF32);
    op.check = [](const ParamValues& v) { validate(contrast_of(v)); };
    op.test_params = {{"value", 1.7}};
    op.bench_params = {{"value", 1.5}};
    ops.push_back(std::move(op));
  }
  {
    Operation op = point_operation(
        "gamma", "y = M*(x/M)^(1/value), rounded (value > 1 brightens, as ImageMagick's -gamma; u8 by table)",
        {number_param("value", "the gamma, 0.05..20", 0.05, 20.0, std::nullopt, false, "required")},
        [](const ImageView& s, const ImageView& d, const ParamValues& v) { reference::gamma(s, d, gamma_of(v)); },
        kComputedU16, kComputedF32);
    op.check = [](const ParamValues& v) { validate(gamma_of(v)); };
    op.test_params = {{"value", 2.2}, {"channels", "rgba"}};
    op.bench_params = {{"value", 2.2}};
    ops.push_back(std::move(op));
  }
  {
    Operation op = point_operation(
        "levels",
        "Map [in lo, in hi] linearly onto [out lo, out hi] (fractions of the range), clamping outside; rounded",
        {range_param("in", "the input range mapped onto the output range; below lo gives out lo, above hi out hi"),
         range_param("out", "the output range (lo > hi inverts)")},
        [](const ImageView& s, const ImageView& d, const ParamValues& v) { reference::levels(s, d, levels_of(v)); },
        kComputedU16, kComputedF32);
    op.check = [](const ParamValues& v) { validate(levels_of(v)); };
    op.test_params = {{"in", std::vector<double>{0.1, 0.85}}, {"out", std::vector<double>{0.95, 0.05}}};
    op.bench_params = {{"in", std::vector<double>{0.05, 0.95}}};
    ops.push_back(std::move(op));
  }
  return ops;
}

GPUFILTER_REGISTER_OPERATION(make_point_operations);

}  // namespace gpufilter::ops
