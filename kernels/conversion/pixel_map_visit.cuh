#pragma once
// Turns a pixel map between two runtime formats into the template arguments
// <Tin, Cin, Tout, Cout, kMap> of a conversion kernel: the library's kernels
// (conversion_kernels.cu) and the lab's staged one take the same pairs.
#include <cstdint>
#include <type_traits>

#include "common/dispatch.cuh"
#include "conversion/conversion_launch.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::kernels {

template <PixelMap kMap>
using MapTag = std::integral_constant<PixelMap, kMap>;
template <int C>
using ChannelsTag = std::integral_constant<int, C>;

// Calls f(TypeTag<T>{}) for a channel type.
template <class F>
void visit_channel_type(ChannelType type, F&& f) {
  switch (type) {
    case ChannelType::U8: return f(TypeTag<std::uint8_t>{});
    case ChannelType::U16: return f(TypeTag<std::uint16_t>{});
    case ChannelType::F32: return f(TypeTag<float>{});
  }
}

// Calls run(TypeTag<Tin>{}, ChannelsTag<Cin>{}, TypeTag<Tout>{}, ChannelsTag<Cout>{},
// MapTag<kMap>{}) for `map` from src's format to dst's; throws Error(UnsupportedFormat)
// for a pair no map kernel takes.
template <class Run>
void visit_pixel_map(const ImageView& src, const ImageView& dst, PixelMap map, Run&& run) {
  const int cin = src.format.channels, cout = dst.format.channels;
  const bool same_type = dst.format.type == src.format.type;
  bool done = false;
  visit_format(src.format, [&](auto tag, auto channels) {
    constexpr int C = decltype(channels)::value;
    switch (map) {
      case PixelMap::Gray:
        if constexpr (C >= 3) {
          if (cout == 1 && same_type) run(tag, channels, tag, ChannelsTag<1>{}, MapTag<PixelMap::Gray>{}), done = true;
        }
        break;
      case PixelMap::AddAlpha:
        if constexpr (C == 3) {
          if (cout == 4 && same_type) run(tag, channels, tag, ChannelsTag<4>{}, MapTag<PixelMap::AddAlpha>{}), done = true;
        }
        break;
      case PixelMap::DropAlpha:
        if constexpr (C == 4) {
          if (cout == 3 && same_type) run(tag, channels, tag, ChannelsTag<3>{}, MapTag<PixelMap::DropAlpha>{}), done = true;
        }
        break;
      case PixelMap::Swap:
        if constexpr (C >= 3) {
          if (dst.format == src.format) run(tag, channels, tag, channels, MapTag<PixelMap::Swap>{}), done = true;
        }
        break;
      case PixelMap::Depth:
        if (cout == cin) {
          visit_channel_type(dst.format.type,
                             [&](auto out_tag) { run(tag, channels, out_tag, channels, MapTag<PixelMap::Depth>{}); });
          done = true;
        }
        break;
    }
  });
  if (!done)
    throw Error(ErrorCode::UnsupportedFormat,
                "conversion: no kernel from " + src.format.name() + " to " + dst.format.name());
}

}  // namespace gpufilter::kernels
