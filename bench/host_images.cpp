#include "host_images.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace bench {
namespace {

// Runs body(y0, y1) over [0, rows) in a few contiguous bands, one thread each.
void for_row_bands(int rows, const std::function<void(int, int)>& body) {
  const int threads = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 64u));
  const int bands = std::max(1, std::min(threads, rows));
  std::vector<std::thread> pool;
  for (int b = 0; b < bands; ++b) {
    const int y0 = static_cast<int>(static_cast<long long>(rows) * b / bands);
    const int y1 = static_cast<int>(static_cast<long long>(rows) * (b + 1) / bands);
    pool.emplace_back(body, y0, y1);
  }
  for (auto& thread : pool) thread.join();
}

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <class T>
void fill_rows(const gpufilter::ImageView& image, std::uint64_t seed, int y0, int y1) {
  const std::size_t count = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.format.channels);
  for (int y = y0; y < y1; ++y) {
    std::uint64_t state = seed ^ (0xD1B54A32D192ED03ull * static_cast<std::uint64_t>(y + 1));
    T* row = image.row<T>(y);
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t bits = splitmix64(state);
      if constexpr (std::is_same_v<T, float>)
        row[i] = static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);  // 24 random bits: [0, 1)
      else
        row[i] = static_cast<T>(bits >> (64 - 8 * sizeof(T)));
    }
  }
}

template <class T>
Comparison compare_typed(const gpufilter::ImageView& actual, const gpufilter::ImageView& expected, double tolerance) {
  Comparison result;
  std::mutex mutex;
  const int channels = actual.format.channels;
  for_row_bands(actual.height, [&](int y0, int y1) {
    double band_max = 0.0;
    std::string band_failure;
    for (int y = y0; y < y1; ++y) {
      const T* a = actual.row<T>(y);
      const T* e = expected.row<T>(y);
      for (int i = 0; i < actual.width * channels; ++i) {
        const double diff = std::fabs(static_cast<double>(a[i]) - static_cast<double>(e[i]));
        // Written as !(diff <= tol) so that a NaN fails too.
        if (!(diff <= tolerance) && band_failure.empty()) {
          char text[192];
          std::snprintf(text, sizeof text, "pixel (%d, %d) channel %d: got %.6g, reference %.6g, tolerance %.3g",
                        i / channels, y, i % channels, static_cast<double>(a[i]), static_cast<double>(e[i]),
                        tolerance);
          band_failure = text;
        }
        band_max = std::isnan(diff) ? std::numeric_limits<double>::infinity() : std::max(band_max, diff);
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    result.max_error = std::max(result.max_error, band_max);
    if (!band_failure.empty() && result.first_failure.empty()) result.first_failure = band_failure;
  });
  result.ok = result.first_failure.empty();
  return result;
}

}  // namespace

void fill_random(const gpufilter::ImageView& image, std::uint64_t seed) {
  for_row_bands(image.height, [&](int y0, int y1) {
    switch (image.format.type) {
      case gpufilter::ChannelType::U8: fill_rows<std::uint8_t>(image, seed, y0, y1); break;
      case gpufilter::ChannelType::U16: fill_rows<std::uint16_t>(image, seed, y0, y1); break;
      case gpufilter::ChannelType::F32: fill_rows<float>(image, seed, y0, y1); break;
    }
  });
}

Comparison compare_images(const gpufilter::ImageView& actual, const gpufilter::ImageView& expected,
                          double tolerance) {
  switch (actual.format.type) {
    case gpufilter::ChannelType::U8: return compare_typed<std::uint8_t>(actual, expected, tolerance);
    case gpufilter::ChannelType::U16: return compare_typed<std::uint16_t>(actual, expected, tolerance);
    case gpufilter::ChannelType::F32: return compare_typed<float>(actual, expected, tolerance);
  }
  return {};
}

}  // namespace bench
