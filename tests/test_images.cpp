#include "test_images.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <sstream>

namespace gpufilter::testing {

double channel_value(const ImageView& view, int x, int y, int c) {
  const std::size_t i = static_cast<std::size_t>(x) * view.format.channels + static_cast<std::size_t>(c);
  switch (view.format.type) {
    case ChannelType::U8: return view.row<const std::uint8_t>(y)[i];
    case ChannelType::U16: return view.row<const std::uint16_t>(y)[i];
    case ChannelType::F32: return view.row<const float>(y)[i];
  }
  return 0.0;
}

void fill_random(const ImageView& view, std::uint32_t seed) {
  std::mt19937 rng(seed);
  for (int y = 0; y < view.height; ++y) {
    const int n = view.width * view.format.channels;
    switch (view.format.type) {
      case ChannelType::U8: {
        std::uniform_int_distribution<int> d(0, 255);
        for (int i = 0; i < n; ++i) view.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(d(rng));
        break;
      }
      case ChannelType::U16: {
        std::uniform_int_distribution<int> d(0, 65535);
        for (int i = 0; i < n; ++i) view.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(d(rng));
        break;
      }
      case ChannelType::F32: {
        std::uniform_real_distribution<float> d(0.0f, 1.0f);
        for (int i = 0; i < n; ++i) view.row<float>(y)[i] = d(rng);
        break;
      }
    }
  }
}

Difference compare(const ImageView& actual, const ImageView& expected) {
  Difference diff;
  for (int y = 0; y < expected.height; ++y)
    for (int x = 0; x < expected.width; ++x)
      for (int c = 0; c < expected.format.channels; ++c) {
        const double a = channel_value(actual, x, y, c), e = channel_value(expected, x, y, c);
        const double d = std::isnan(a) ? std::numeric_limits<double>::infinity() : std::fabs(a - e);
        const bool any_nan = diff.has_nan || std::isnan(a);
        if (diff.x < 0 || d > diff.max_abs) diff = {d, x, y, c, a, e, any_nan};
        diff.has_nan = any_nan;
      }
  return diff;
}

std::string Difference::describe() const {
  std::ostringstream text;
  text << "max |diff| " << max_abs << " at (" << x << ", " << y << ") channel " << channel << ": got " << actual
       << ", expected " << expected << (has_nan ? " (output holds NaN: unwritten pixels)" : "");
  return text.str();
}

void poison_against(const ImageView& view, const ImageView& reference) {
  for (int y = 0; y < view.height; ++y)
    for (int i = 0; i < view.width * view.format.channels; ++i) switch (view.format.type) {
        case ChannelType::U8: view.row<std::uint8_t>(y)[i] = reference.row<const std::uint8_t>(y)[i] ^ 0x80; break;
        case ChannelType::U16:
          view.row<std::uint16_t>(y)[i] = reference.row<const std::uint16_t>(y)[i] ^ 0x8000;
          break;
        case ChannelType::F32: view.row<float>(y)[i] = std::numeric_limits<float>::quiet_NaN(); break;
      }
}

}  // namespace gpufilter::testing
