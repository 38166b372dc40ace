// The conversions in the registry: gray, add_alpha, drop_alpha, swap_channels,
// convert, planar, interleaved. Each declares its output format (output_shape); their
// GPU side is gpu/conversion_gpu.cpp.
#include <string>

#include "conversion/gray_cpu.hpp"
#include "gpufilter/conversions.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"
#include "conversion/conversion_variants.hpp"
#include "common/operations.hpp"
#include "throw_invalid.hpp"

namespace gpufilter::ops {
namespace {

std::vector<PixelFormat> formats_with(std::initializer_list<int> channels) {
  std::vector<PixelFormat> formats;
  for (const PixelFormat& format : all_pixel_formats())
    for (int c : channels)
      if (format.channels == c) formats.push_back(format);
  return formats;
}

std::size_t samples(int width, int height) { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height); }

using Cpu = std::function<void(const ImageView&, const ImageView&, const ParamValues&)>;

Operation conversion(std::string name, std::string summary, std::vector<ParamSpec> params,
                     std::vector<PixelFormat> formats, Cpu cpu) {
  Operation op;
  op.name = name;
  op.group = OperationGroup::Formats;
  op.summary = std::move(summary);
  op.params = std::move(params);
  op.formats = std::move(formats);
  op.variants = names_of(kConversionVariants);
  // On 8-bit images 16-byte accesses for 3-byte pixels and 1-byte outputs too, global
  // instructions contiguous across the warp; unroll4 on the others.
  op.default_variant = "vec16_warp";
  op.run_reference = [cpu](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
    cpu(src, dst, values);
  };
  op.tolerance = [](PixelFormat) { return Tolerance{0.0}; };
  // Input read once, output written once: the output's bytes from output_shape.
  op.bytes_moved = [](int width, int height, PixelFormat format, const ParamValues&) {
    return 2 * samples(width, height) * format.pixel_bytes();
  };
  return op;
}

void with_bytes_of_output(Operation& op) {
  const auto shape = op.output_shape;
  op.bytes_moved = [shape](int width, int height, PixelFormat format, const ParamValues& values) {
    const ImageShape out = shape(ImageShape{width, height, format}, values);
    return samples(width, height) * format.pixel_bytes() + samples(out.width, out.height) * out.format.pixel_bytes();
  };
}

void need_channels(const std::string& op, const ImageShape& input, int low, int high) {
  if (input.format.channels < low || input.format.channels > high)
    throw_invalid(op + ": needs a " +
                  (low == high ? std::to_string(low) : std::to_string(low) + " or " + std::to_string(high)) +
                  "-channel image, got " + input.format.name());
}

ChannelType depth_of(const ParamValues& values) {
  if (!values.has("depth")) throw_invalid("convert: give --depth u8, u16 or f32");
  const std::string& depth = values.text("depth");
  return depth == "u8" ? ChannelType::U8 : depth == "u16" ? ChannelType::U16 : ChannelType::F32;
}

}  // namespace

std::string order_of(const ParamValues& values) { return values.has("order") ? values.text("order") : ""; }

int planes_of(const ParamValues& values) {
  if (!values.has("channels")) throw_invalid("interleaved: give --channels 3 or 4");
  const int n = static_cast<int>(values.number("channels"));
  if (n != 3 && n != 4) throw_invalid("interleaved: --channels must be 3 or 4, got " + std::to_string(n));
  return n;
}

std::vector<Operation> make_conversion_operations() {
  std::vector<Operation> ops;
  {
    Operation op = conversion(
        "gray", "RGB(A) to gray: y = wr*R + wg*G + wb*B, alpha dropped (--weights bt601 as cv::cvtColor, or bt709)",
        {choice_param("weights", "the luma weights: bt601 (0.299, 0.587, 0.114) or bt709 (0.2126, 0.7152, 0.0722)",
                      {"bt601", "bt709"}, "bt601")},
        formats_with({3, 4}),
        [](const ImageView& s, const ImageView& d, const ParamValues& v) {
          reference::gray(s, d, gray_weights_from_name(v.text("weights")));
        });
    op.run_cpu = [](const ImageView& src, const ImageView& dst, const ParamValues& values, const Border&) {
      cpu::gray(src, dst, gray_weights_from_name(values.text("weights")));
    };
    op.output_shape = [](const ImageShape& in, const ParamValues&) {
      need_channels("gray", in, 3, 4);
      return ImageShape{in.width, in.height, PixelFormat{in.format.type, 1}};
    };
    with_bytes_of_output(op);
    // Summed in float on the GPU, in double in the reference: a sum within float
    // error of .5 may round the other way.
    op.tolerance = [](PixelFormat format) {
      return format.type == ChannelType::F32 ? Tolerance{1e-6} : Tolerance{1.0, 0.01};
    };
    op.test_params = {{"weights", "bt709"}};
    op.bench_params = {};
    ops.push_back(std::move(op));
  }
  {
    Operation op = conversion(
        "add_alpha", "RGB to RGBA with an opaque alpha (M); exact", {}, formats_with({3}),
        [](const ImageView& s, const ImageView& d, const ParamValues&) { reference::add_alpha(s, d); });
    op.output_shape = [](const ImageShape& in, const ParamValues&) {
      need_channels("add_alpha", in, 3, 3);
      return ImageShape{in.width, in.height, PixelFormat{in.format.type, 4}};
    };
    with_bytes_of_output(op);
    ops.push_back(std::move(op));
  }
  {
    Operation op = conversion(
        "drop_alpha", "RGBA to RGB: the colour channels, alpha dropped; exact", {}, formats_with({4}),
        [](const ImageView& s, const ImageView& d, const ParamValues&) { reference::drop_alpha(s, d); });
    op.output_shape = [](const ImageShape& in, const ParamValues&) {
      need_channels("drop_alpha", in, 4, 4);
      return ImageShape{in.width, in.height, PixelFormat{in.format.type, 3}};
    };
    with_bytes_of_output(op);
    ops.push_back(std::move(op));
  }
  {
    Operation op = conversion(
        "swap_channels", "Reorder the channels: output channel i is the input channel the order's letter i names; exact",
        {text_param("order",
                    "a permutation of the image's channels: of rgb (3 channels), of rgba, or of rgb on a 4-channel "
                    "image (alpha kept last); e.g. bgr, bgra, argb",
                    "LETTERS", "red and blue swapped")},
        formats_with({3, 4}),
        [](const ImageView& s, const ImageView& d, const ParamValues& v) {
          reference::swap_channels(s, d, ChannelOrder::parse(order_of(v), s.format.channels));
        });
    op.output_shape = [](const ImageShape& in, const ParamValues& v) {
      need_channels("swap_channels", in, 3, 4);
      ChannelOrder::parse(order_of(v), in.format.channels);
      return in;
    };
    op.check = [](const ParamValues& v) {
      const std::string order = order_of(v);
      ChannelOrder::parse(order, order.size() == 4 ? 4 : 3);
    };
    op.test_params = {{"order", "gbr"}};  // a 3-cycle; on 4 channels alpha stays last
    op.bench_params = {{"order", "bgr"}};
    ops.push_back(std::move(op));
  }
  {
    ParamSpec depth = choice_param("depth", "the channel type to convert to, scaled to its range (f32: 0..1)",
                                   {"u8", "u16", "f32"}, "u8");
    depth.default_value.reset();
    depth.default_text = "required";
    Operation op = conversion(
        "convert",
        "Change the channel type: y = round(x * M_out / M_in), saturated (u8->u16 x*257; f32 clamped to 0..1); exact",
        {depth}, all_pixel_formats(),
        [](const ImageView& s, const ImageView& d, const ParamValues&) { reference::convert_depth(s, d); });
    op.output_shape = [](const ImageShape& in, const ParamValues& v) {
      return ImageShape{in.width, in.height, PixelFormat{depth_of(v), in.format.channels}};
    };
    op.check = [](const ParamValues& v) { depth_of(v); };
    with_bytes_of_output(op);
    op.test_params = {{"depth", "u8"}};  // u16 and f32 rounded and saturated to u8
    op.bench_params = {{"depth", "f32"}};
    ops.push_back(std::move(op));
  }
  {
    Operation op = conversion(
        "planar",
        "Interleaved (AoS) to planar (SoA): the output is a 1-channel image of height h*channels, plane c in rows "
        "c*h..(c+1)*h-1; exact",
        {}, formats_with({3, 4}),
        [](const ImageView& s, const ImageView& d, const ParamValues&) {
          reference::to_planar(s, planar_view(d, s.format.channels));
        });
    op.output_shape = [](const ImageShape& in, const ParamValues&) {
      need_channels("planar", in, 3, 4);
      return ImageShape{in.width, in.height * in.format.channels, PixelFormat{in.format.type, 1}};
    };
    ops.push_back(std::move(op));
  }
  {
    Operation op = conversion(
        "interleaved",
        "Planar (SoA, planes stacked vertically in a 1-channel image) to interleaved (AoS) of --channels channels; "
        "the height must divide; exact",
        {number_param("channels", "the planes stacked in the input (3 or 4)", 3.0, 4.0, std::nullopt, true,
                      "required")},
        formats_with({1}),
        [](const ImageView& s, const ImageView& d, const ParamValues& v) {
          reference::to_interleaved(planar_view(s, planes_of(v)), d);
        });
    op.output_shape = [](const ImageShape& in, const ParamValues& v) {
      const int n = planes_of(v);
      need_channels("interleaved", in, 1, 1);
      if (in.height % n != 0)
        throw_invalid("interleaved: a height of " + std::to_string(in.height) + " rows does not hold " +
                      std::to_string(n) + " planes of equal height");
      return ImageShape{in.width, in.height / n, PixelFormat{in.format.type, n}};
    };
    op.check = [](const ParamValues& v) { planes_of(v); };
    op.test_params = {{"channels", 3}};
    op.bench_params = {{"channels", 4}};
    ops.push_back(std::move(op));
  }
  return ops;
}

GPUFILTER_REGISTER_OPERATION(make_conversion_operations);

}  // namespace gpufilter::ops
