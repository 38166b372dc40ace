#include "gpufilter/testing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <sstream>
#include <type_traits>

#include "common/parallel_rows.hpp"

namespace gpufilter::testing {
namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Each row has its own generator state, so the values do not depend on how rows are
// split across threads.
template <class T>
void fill_rows(const ImageView& view, std::uint64_t seed, int y0, int y1) {
  const int count = view.width * view.format.channels;
  for (int y = y0; y < y1; ++y) {
    std::uint64_t state = seed ^ (0xD1B54A32D192ED03ull * static_cast<std::uint64_t>(y + 1));
    T* row = view.row<T>(y);
    for (int i = 0; i < count; ++i) {
      const std::uint64_t bits = splitmix64(state);
      if constexpr (std::is_same_v<T, float>)
        row[i] = static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);  // 24 random bits: [0, 1)
      else
        row[i] = static_cast<T>(bits >> (64 - 8 * sizeof(T)));
    }
  }
}

}  // namespace

double channel_value(const ImageView& view, int x, int y, int c) {
  const std::size_t i = static_cast<std::size_t>(x) * view.format.channels + static_cast<std::size_t>(c);
  switch (view.format.type) {
    case ChannelType::U8: return view.row<const std::uint8_t>(y)[i];
    case ChannelType::U16: return view.row<const std::uint16_t>(y)[i];
    case ChannelType::F32: return view.row<const float>(y)[i];
  }
  return 0.0;
}

void fill_random(const ImageView& view, std::uint64_t seed) {
  reference::parallel_rows(view.height, [&](int y0, int y1) {
    switch (view.format.type) {
      case ChannelType::U8: fill_rows<std::uint8_t>(view, seed, y0, y1); break;
      case ChannelType::U16: fill_rows<std::uint16_t>(view, seed, y0, y1); break;
      case ChannelType::F32: fill_rows<float>(view, seed, y0, y1); break;
    }
  });
}

Difference compare(const ImageView& actual, const ImageView& expected, bool colours_by_alpha) {
  Difference result;
  std::mutex mutex;
  const bool by_alpha = colours_by_alpha && expected.format.channels == 4;
  const double range = expected.format.max_value();
  const double least_compared_alpha = Tolerance::kLeastComparedAlpha * range;
  reference::parallel_rows(expected.height, [&](int y0, int y1) {
    Difference band;
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < expected.width; ++x)
        for (int c = 0; c < expected.format.channels; ++c) {
          const double a = channel_value(actual, x, y, c), e = channel_value(expected, x, y, c);
          const bool nan = std::isnan(a) || std::isnan(e);
          double d = nan ? std::numeric_limits<double>::infinity() : std::fabs(a - e);
          if (by_alpha && c < 3 && !nan) {
            const double expected_alpha = channel_value(expected, x, y, 3);
            const double actual_alpha = channel_value(actual, x, y, 3);
            const double got_alpha = expected.format.type == ChannelType::F32 ? actual_alpha : expected_alpha;
            d = expected_alpha <= least_compared_alpha ? 0.0 : std::fabs(a * got_alpha - e * expected_alpha) / range;
          }
          if (band.x < 0 || d > band.max_abs) {
            band.max_abs = d;
            band.x = x, band.y = y, band.channel = c;
            band.actual = a, band.expected = e;
          }
          band.has_nan = band.has_nan || nan;
          band.differing += d > 0.0 ? 1 : 0;
        }
    std::lock_guard<std::mutex> lock(mutex);
    // Bands finish in any order: keep the largest difference, the earliest row on ties.
    const bool better = result.x < 0 || band.max_abs > result.max_abs ||
                        (band.max_abs == result.max_abs && band.y < result.y);
    const bool any_nan = result.has_nan || band.has_nan;
    const std::size_t differing = result.differing + band.differing;
    if (band.x >= 0 && better) result = band;
    result.has_nan = any_nan;
    result.differing = differing;
  });
  result.samples = static_cast<std::size_t>(expected.width) * static_cast<std::size_t>(expected.height) *
                   static_cast<std::size_t>(expected.format.channels);
  result.colours_by_alpha = by_alpha;
  return result;
}

bool Difference::within(const Tolerance& tolerance) const {
  // A share means little in a handful of samples (a 1x1 image has 1 to 4): two
  // differing samples are always allowed, and larger images catch a truncating kernel.
  constexpr double kAlwaysAllowed = 2.0;
  const double allowed = std::max(kAlwaysAllowed, tolerance.max_differing_share * static_cast<double>(samples));
  return within(tolerance.max_abs) && static_cast<double>(differing) <= allowed;
}

std::string Difference::describe() const {
  std::ostringstream text;
  text << "max |diff| " << max_abs << " at (" << x << ", " << y << ") channel " << channel << ": got " << actual
       << ", expected " << expected << (has_nan ? " (a NaN: an unwritten pixel?)" : "") << "; " << differing
       << " of " << samples << " samples differ"
       << (colours_by_alpha ? " (colours compared premultiplied by their alpha)" : "");
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

DataDifference compare_data(const Operation& op, PixelFormat input_format, const DataLayout& layout,
                            const double* actual, const double* expected) {
  DataDifference result;
  const std::size_t columns = layout.columns.size();
  for (std::size_t row = 0; row < layout.row_labels.size(); ++row) {
    for (std::size_t column = 0; column < columns; ++column) {
      const double a = actual[row * columns + column];
      const double e = expected[row * columns + column];
      const DataTolerance tolerance = op.data_tolerance(input_format, layout.columns[column]);
      const double diff = std::fabs(a - e);
      const bool fine = !std::isnan(a) && !std::isnan(e) && diff <= tolerance.max_abs + tolerance.max_rel * std::fabs(e);
      if (!std::isnan(diff)) result.max_abs = std::max(result.max_abs, diff);
      if (fine || !result.ok) continue;
      result.ok = false;
      std::ostringstream text;
      text.precision(17);
      text << layout.row_title << " '" << layout.row_labels[row] << "', column '" << layout.columns[column]
           << "': " << a << " vs " << e << " (tolerance " << tolerance.max_abs << " + " << tolerance.max_rel
           << " relative)";
      result.first_failure = text.str();
    }
  }
  return result;
}

}  // namespace gpufilter::testing
