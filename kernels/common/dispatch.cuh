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

// Calls f(TypeTag<T>{}, std::integral_constant<int, C>{}).
template <class F>
decltype(auto) visit_format(PixelFormat format, F&& f) {
  auto with_channels = [&](auto tag) -> decltype(auto) {
    switch (format.channels) {
      case 1: return f(tag, std::integral_constant<int, 1>{});
      case 3: return f(tag, std::integral_constant<int, 3>{});
      case 4: return f(tag, std::integral_constant<int, 4>{});
    }
    throw Error(ErrorCode::UnsupportedFormat, "unsupported channel count in " + format.name());
  };
  switch (format.type) {
    case ChannelType::U8: return with_channels(TypeTag<std::uint8_t>{});
    case ChannelType::U16: return with_channels(TypeTag<std::uint16_t>{});
    case ChannelType::F32: return with_channels(TypeTag<float>{});
  }
  throw Error(ErrorCode::UnsupportedFormat, "unsupported channel type in " + format.name());
}

}  // namespace gpufilter::kernels
