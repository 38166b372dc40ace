#include "tone/tone_tables.hpp"

#include <algorithm>
#include <cmath>

namespace gpufilter::reference::tone {

// cv::equalizeHist's table.
Table equalize_table(const Histogram& h, unsigned long long pixels) {
  Table t{};
  int first = 0;
  while (h[static_cast<std::size_t>(first)] == 0) ++first;
  if (h[static_cast<std::size_t>(first)] == pixels) {
    for (int v = 0; v < 256; ++v) t[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(v);
    return t;
  }
  const float scale = 255.0f / static_cast<float>(pixels - h[static_cast<std::size_t>(first)]);
  long long sum = 0;
  for (int v = first + 1; v < 256; ++v) {
    sum += static_cast<long long>(h[static_cast<std::size_t>(v)]);
    const long r = std::lrint(static_cast<float>(sum) * scale);
    t[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(std::clamp<long>(r, 0, 255));
  }
  return t;
}

Table threshold_table(int threshold) {
  Table t{};
  for (int v = 0; v < 256; ++v) t[static_cast<std::size_t>(v)] = v > threshold ? 255 : 0;
  return t;
}

Table normalize_table(const Histogram& h, unsigned long long pixels, double clip_count) {
  int lo = 0, hi = 255;
  unsigned long long below = 0;
  for (lo = 0; lo < 256; ++lo) {
    below += h[static_cast<std::size_t>(lo)];
    if (static_cast<double>(below) > clip_count) break;
  }
  unsigned long long above = 0;
  for (hi = 255; hi >= 0; --hi) {
    above += h[static_cast<std::size_t>(hi)];
    if (static_cast<double>(above) > clip_count) break;
  }
  (void)pixels;
  Table t{};
  for (int v = 0; v < 256; ++v) {
    int out = v;
    if (hi > lo) {
      if (v <= lo) out = 0;
      else if (v >= hi) out = 255;
      else out = static_cast<int>(std::floor(255.0 * (v - lo) / (hi - lo) + 0.5));
    }
    t[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(out);
  }
  return t;
}

}  // namespace gpufilter::reference::tone
