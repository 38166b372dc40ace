// gpufilter_request_create / destroy: the CLI's parameter reading (cli/arguments.cpp),
// with the same messages, for values that come as text from any language.
#include <cmath>
#include <memory>
#include <string>

#include "c_status.hpp"
#include "gpufilter/error.hpp"
#include "json_writer.hpp"
#include "request.hpp"

namespace gpufilter::capi {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

const Operation& find_op(const char* name) {
  if (name == nullptr) invalid("no op given");
  if (const Operation* op = find_operation(name)) return *op;
  std::vector<std::string> names;
  for (const Operation& op : operations()) names.push_back(op.name);
  invalid(std::string("unknown op '") + name + "'; known ops: " + join(names));
}

ParamValues read_params(const Operation& op, int count, const char* const* names, const char* const* values) {
  if (count < 0) invalid("count must be 0 or more, got " + std::to_string(count));
  if (count > 0 && (names == nullptr || values == nullptr)) {
    invalid(std::string(names == nullptr ? "names" : "values") + " is NULL but count is " + std::to_string(count));
  }
  ParamValues given;
  for (int i = 0; i < count; ++i) {
    if (names[i] == nullptr || values[i] == nullptr) invalid("a parameter's name or value is NULL");
    const ParamSpec* spec = op.find_param(names[i]);
    if (spec == nullptr) invalid(op.name + ": unknown parameter '" + names[i] + "'");
    given[spec->name] = spec->parse(values[i]);
  }
  return op.resolve(given);
}

BorderMode read_border_mode(const char* name) {
  for (const BorderMode mode : all_border_modes())
    if (std::string(name) == to_string(mode)) return mode;
  std::vector<std::string> names;
  for (const BorderMode mode : all_border_modes()) names.emplace_back(to_string(mode));
  invalid(std::string("unknown border '") + name + "'; use one of " + join(names));
}

void read_border(const Operation& op, const char* border, const double* values, int count, gpufilter_request& into) {
  if (!op.uses_border && (border != nullptr || count > 0)) {
    invalid(op.name + " reads no pixels outside the image, so it takes no border");
  }
  if (count < 0) invalid("border_value_count must be 0 or more, got " + std::to_string(count));
  if (count > 0 && values == nullptr) invalid("border_value is NULL but border_value_count is " + std::to_string(count));
  if (border != nullptr) into.border.mode = read_border_mode(border);
  if (count == 0) return;
  if (into.border.mode != BorderMode::Constant) invalid("border_value needs border 'constant'");
  if (count > static_cast<int>(into.border.value.size())) {
    invalid("border_value takes at most " + std::to_string(into.border.value.size()) + " numbers, got " +
            std::to_string(count));
  }
  into.border_values.assign(values, values + count);
  for (const double value : into.border_values)
    if (!std::isfinite(value)) invalid("border_value must be finite, got " + number_text(value));
  for (std::size_t c = 0; c < into.border.value.size(); ++c) {
    into.border.value[c] = count == 1 ? values[0] : (c < static_cast<std::size_t>(count) ? values[c] : 0.0);
  }
}

}  // namespace

ImageView to_view(const gpufilter_image& image) {
  ChannelType type = ChannelType::U8;
  switch (image.type) {
    case GPUFILTER_U8: type = ChannelType::U8; break;
    case GPUFILTER_U16: type = ChannelType::U16; break;
    case GPUFILTER_F32: type = ChannelType::F32; break;
    default: invalid("unknown channel type " + std::to_string(image.type) + " (0: u8, 1: u16, 2: f32)");
  }
  return ImageView{image.data, image.width, image.height, image.pitch, PixelFormat{type, image.channels}};
}

gpufilter_image to_c_image(const ImageShape& shape) {
  gpufilter_image image{};
  image.width = shape.width;
  image.height = shape.height;
  image.pitch = static_cast<std::size_t>(shape.width) * shape.format.pixel_bytes();
  image.type = shape.format.type == ChannelType::U8 ? GPUFILTER_U8
               : shape.format.type == ChannelType::U16 ? GPUFILTER_U16
                                                       : GPUFILTER_F32;
  image.channels = shape.format.channels;
  return image;
}

Border border_for(const gpufilter_request& request, PixelFormat format) {
  if (format.type == ChannelType::F32) return request.border;
  const bool u8 = format.type == ChannelType::U8;
  const double max = u8 ? 255.0 : 65535.0;
  const std::string channels = std::string("the image has ") + (u8 ? "8-bit" : "16-bit") +
                               " channels, which hold whole numbers 0.." + number_text(max);
  for (const double value : request.border_values) {
    if (value != std::floor(value)) invalid("border_value " + number_text(value) + " is not a whole number; " + channels);
    if (value < 0.0 || value > max) invalid("border_value " + number_text(value) + " is out of range; " + channels);
  }
  return request.border;
}

void check_format(const gpufilter_request& request, PixelFormat format) {
  if (format.channels != 1 && format.channels != 3 && format.channels != 4) {
    throw Error(ErrorCode::UnsupportedFormat,
                request.op->name + " takes 1, 3 or 4 channels, not " + std::to_string(format.channels));
  }
  if (!request.op->supports(format)) {
    throw Error(ErrorCode::UnsupportedFormat, request.op->name + " does not take " + format.name() + " pixels");
  }
}

}  // namespace gpufilter::capi

using namespace gpufilter;

extern "C" gpufilter_status gpufilter_request_create(const char* op, int count, const char* const* names,
                                                     const char* const* values, const char* border,
                                                     const double* border_value, int border_value_count,
                                                     const char* variant, gpufilter_request** request) {
  return capi::guarded([&] {
    if (request == nullptr) throw Error(ErrorCode::InvalidArgument, "request is NULL");
    *request = nullptr;
    auto made = std::make_unique<gpufilter_request>();
    made->op = &capi::find_op(op);
    made->params = capi::read_params(*made->op, count, names, values);
    capi::read_border(*made->op, border, border_value, border_value_count, *made);
    made->variant = variant != nullptr ? variant : made->op->default_variant;
    if (!made->op->has_variant(made->variant)) {
      throw Error(ErrorCode::InvalidArgument, "unknown variant '" + made->variant + "' for " + made->op->name +
                                                  "; use one of " + capi::join(made->op->variants));
    }
    *request = made.release();
  });
}

extern "C" void gpufilter_request_destroy(gpufilter_request* request) { delete request; }
