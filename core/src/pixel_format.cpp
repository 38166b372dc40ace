#include "gpufilter/pixel_format.hpp"

#include "gpufilter/error.hpp"

namespace gpufilter {

std::size_t PixelFormat::channel_bytes() const {
  switch (type) {
    case ChannelType::U8: return 1;
    case ChannelType::U16: return 2;
    case ChannelType::F32: return 4;
  }
  return 0;
}

double PixelFormat::max_value() const {
  switch (type) {
    case ChannelType::U8: return 255.0;
    case ChannelType::U16: return 65535.0;
    case ChannelType::F32: return 1.0;
  }
  return 0.0;
}

const char* to_string(ChannelType type) {
  switch (type) {
    case ChannelType::U8: return "u8";
    case ChannelType::U16: return "u16";
    case ChannelType::F32: return "f32";
  }
  return "?";
}

std::string PixelFormat::name() const {
  return std::string(to_string(type)) + "x" + std::to_string(channels);
}

const std::vector<PixelFormat>& all_pixel_formats() {
  static const std::vector<PixelFormat> formats = [] {
    std::vector<PixelFormat> all;
    for (ChannelType type : {ChannelType::U8, ChannelType::U16, ChannelType::F32})
      for (int channels : {1, 3, 4}) all.push_back({type, channels});
    return all;
  }();
  return formats;
}

PixelFormat parse_pixel_format(const std::string& text) {
  for (const PixelFormat& format : all_pixel_formats())
    if (format.name() == text) return format;
  throw Error(ErrorCode::InvalidArgument,
              "unknown pixel format '" + text + "' (expected u8|u16|f32 x 1|3|4, e.g. u8x3)");
}

}  // namespace gpufilter
