#pragma once
// Reading and writing one channel of a host image as double, for the reference code.
#include <cmath>
#include <cstdint>

#include "gpufilter/image_view.hpp"

namespace gpufilter::reference {

inline double read_channel(const ImageView& view, int x, int y, int c) {
  const std::size_t index = static_cast<std::size_t>(x) * static_cast<std::size_t>(view.format.channels) +
                            static_cast<std::size_t>(c);
  switch (view.format.type) {
    case ChannelType::U8: return view.row<const std::uint8_t>(y)[index];
    case ChannelType::U16: return view.row<const std::uint16_t>(y)[index];
    case ChannelType::F32: return view.row<const float>(y)[index];
  }
  return 0.0;
}

// `value` as a channel of `type` stores it: integers round half to even and saturate.
inline double stored_value(double value, ChannelType type) {
  switch (type) {
    case ChannelType::U8: return static_cast<double>(std::lrint(std::fmin(std::fmax(value, 0.0), 255.0)));
    case ChannelType::U16: return static_cast<double>(std::lrint(std::fmin(std::fmax(value, 0.0), 65535.0)));
    case ChannelType::F32: return static_cast<double>(static_cast<float>(value));
  }
  return value;
}

// Integer formats round half to even (like lrint) and saturate.
inline void write_channel(const ImageView& view, int x, int y, int c, double value) {
  const std::size_t index = static_cast<std::size_t>(x) * static_cast<std::size_t>(view.format.channels) +
                            static_cast<std::size_t>(c);
  switch (view.format.type) {
    case ChannelType::U8:
      view.row<std::uint8_t>(y)[index] =
          static_cast<std::uint8_t>(std::lrint(std::fmin(std::fmax(value, 0.0), 255.0)));
      break;
    case ChannelType::U16:
      view.row<std::uint16_t>(y)[index] =
          static_cast<std::uint16_t>(std::lrint(std::fmin(std::fmax(value, 0.0), 65535.0)));
      break;
    case ChannelType::F32: view.row<float>(y)[index] = static_cast<float>(value); break;
  }
}

}  // namespace gpufilter::reference
