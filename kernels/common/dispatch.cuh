#pragma once
// Turns a runtime PixelFormat into the template arguments <T, C> of a kernel.
#include <cstdint>
#include <type_traits>

#include "gpufilter/error.hpp"
#include "gpufilter/pixel_format.hpp"

namespace gpufilter::kernels {

template <class T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}) for the format's channel type (for launchers that compile each
// type in a file of its own).
template <class F>
decltype(auto) visit_channel_type(PixelFormat format, F&& f) {
  switch (format.type) {
    case ChannelType::U8: return f(TypeTag<std::uint8_t>{});
    case ChannelType::U16: return f(TypeTag<std::uint16_t>{});
    case ChannelType::F32: return f(TypeTag<float>{});
  }
  throw Error(ErrorCode::UnsupportedFormat, "unsupported channel type in " + format.name());
}

// Calls f(std::integral_constant<int, C>{}) for the format's channel count (1, 3 or 4).
template <class F>
decltype(auto) visit_channels(PixelFormat format, F&& f) {
  switch (format.channels) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
  }
  throw Error(ErrorCode::UnsupportedFormat, "unsupported channel count in " + format.name());
}

// Calls f(TypeTag<T>{}, std::integral_constant<int, C>{}).
template <class F>
decltype(auto) visit_format(PixelFormat format, F&& f) {
  return visit_channel_type(format, [&](auto tag) -> decltype(auto) {
    return visit_channels(format, [&](auto channels) -> decltype(auto) { return f(tag, channels); });
  });
}

}  // namespace gpufilter::kernels
