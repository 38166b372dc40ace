// The stats reference, written from the definitions and sharing nothing with the
// kernels. Integer images are first counted per value (a table of 256 or 65536 counts
// per channel), so the sum is exact and the deviation is a sum over the distinct values
// in long double, about the exact mean; f32 images are summed in long double, twice
// (the mean, then the squared deviations from it).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/statistics.hpp"

namespace gpufilter::reference {
namespace {

struct Found {
  double value;
  long long x = -1, y = -1;
};

void put(double* row, const Found& min, const Found& max, long double sum, long double mean, long double variance) {
  row[static_cast<int>(StatsColumn::Min)] = min.value;
  row[static_cast<int>(StatsColumn::Max)] = max.value;
  row[static_cast<int>(StatsColumn::Sum)] = static_cast<double>(sum);
  row[static_cast<int>(StatsColumn::Mean)] = static_cast<double>(mean);
  row[static_cast<int>(StatsColumn::StdDev)] = static_cast<double>(std::sqrt(variance));
  row[static_cast<int>(StatsColumn::MinX)] = static_cast<double>(min.x);
  row[static_cast<int>(StatsColumn::MinY)] = static_cast<double>(min.y);
  row[static_cast<int>(StatsColumn::MaxX)] = static_cast<double>(max.x);
  row[static_cast<int>(StatsColumn::MaxY)] = static_cast<double>(max.y);
}

// The first pixel, in row-major order, whose channel c equals `value`.
template <class T>
Found first_occurrence(const ImageView& src, int c, T value) {
  for (int y = 0; y < src.height; ++y) {
    const T* row = src.row<const T>(y);
    for (int x = 0; x < src.width; ++x)
      if (row[static_cast<std::size_t>(x) * src.format.channels + c] == value)
        return Found{static_cast<double>(value), x, y};
  }
  return Found{static_cast<double>(value), 0, 0};
}

template <class T>
void integer_stats(const ImageView& src, double* result) {
  const int channels = src.format.channels;
  const long double n = static_cast<long double>(src.width) * src.height;
  for (int c = 0; c < channels; ++c) {
    std::vector<std::uint64_t> counts(std::size_t{1} << (8 * sizeof(T)), 0);
    for (int y = 0; y < src.height; ++y) {
      const T* row = src.row<const T>(y);
      for (int x = 0; x < src.width; ++x) ++counts[row[static_cast<std::size_t>(x) * channels + c]];
    }
    std::size_t lowest = 0, highest = counts.size() - 1;
    while (counts[lowest] == 0) ++lowest;
    while (counts[highest] == 0) --highest;
    std::uint64_t sum = 0;
    for (std::size_t v = 0; v < counts.size(); ++v) sum += counts[v] * v;
    const long double mean = static_cast<long double>(sum) / n;
    long double squares = 0.0L;
    for (std::size_t v = 0; v < counts.size(); ++v) {
      const long double d = static_cast<long double>(v) - mean;
      squares += static_cast<long double>(counts[v]) * d * d;
    }
    put(result + c * kStatsColumns, first_occurrence<T>(src, c, static_cast<T>(lowest)),
        first_occurrence<T>(src, c, static_cast<T>(highest)), static_cast<long double>(sum), mean, squares / n);
  }
}

void float_stats(const ImageView& src, double* result) {
  const int channels = src.format.channels;
  const long double n = static_cast<long double>(src.width) * src.height;
  for (int c = 0; c < channels; ++c) {
    float lowest = std::numeric_limits<float>::infinity(), highest = -lowest;
    long double sum = 0.0L;
    for (int y = 0; y < src.height; ++y) {
      const float* row = src.row<const float>(y);
      for (int x = 0; x < src.width; ++x) {
        const float v = row[static_cast<std::size_t>(x) * channels + c];
        lowest = std::fmin(lowest, v);
        highest = std::fmax(highest, v);
        sum += v;
      }
    }
    const long double mean = sum / n;
    long double squares = 0.0L;
    for (int y = 0; y < src.height; ++y) {
      const float* row = src.row<const float>(y);
      for (int x = 0; x < src.width; ++x) {
        const long double d = row[static_cast<std::size_t>(x) * channels + c] - mean;
        squares += d * d;
      }
    }
    put(result + c * kStatsColumns, first_occurrence<float>(src, c, lowest), first_occurrence<float>(src, c, highest),
        sum, mean, squares / n);
  }
}

}  // namespace

void image_stats(const ImageView& src, double* result) {
  validate_view(src, "stats");
  switch (src.format.type) {
    case ChannelType::U8: integer_stats<std::uint8_t>(src, result); return;
    case ChannelType::U16: integer_stats<std::uint16_t>(src, result); return;
    case ChannelType::F32: float_stats(src, result); return;
  }
  throw Error(ErrorCode::UnsupportedFormat, "stats: unsupported format " + src.format.name());
}

}  // namespace gpufilter::reference
