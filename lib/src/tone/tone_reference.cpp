// The tone references: each op's definition from tone.hpp, step by step on the host,
// sharing nothing with the kernels.
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "gpufilter/error.hpp"
#include "gpufilter/tone.hpp"
#include "tone/tone_tables.hpp"

namespace gpufilter::reference {
namespace {

using tone::colour_channels;
using tone::Histogram;
using tone::luminance;
using tone::pixel_count;
using tone::Table;

void check_u8_pair(const ImageView& src, const ImageView& dst, const char* op) {
  validate_pair(src, dst, op);
  if (src.format.type != ChannelType::U8)
    throw Error(ErrorCode::UnsupportedFormat, std::string(op) + " takes u8 images, got " + src.format.name());
}

Histogram channel_histogram(const ImageView& src, int c) {
  Histogram h{};
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x) ++h[src.row<const std::uint8_t>(y)[x * src.format.channels + c]];
  return h;
}

// Each colour channel through its table (or all through tables[0]); alpha copied.
void apply(const ImageView& src, const ImageView& dst, const std::array<Table, 3>& tables, bool shared) {
  const int channels = src.format.channels;
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x)
      for (int c = 0; c < channels; ++c) {
        const std::uint8_t v = src.row<const std::uint8_t>(y)[x * channels + c];
        dst.row<std::uint8_t>(y)[x * channels + c] =
            c < 3 ? tables[static_cast<std::size_t>(shared ? 0 : c)][v] : v;
      }
}


}  // namespace

int otsu_threshold(const unsigned long long* h, unsigned long long pixels) {
  const double scale = 1.0 / static_cast<double>(pixels);
  double mu = 0.0;
  for (int i = 0; i < 256; ++i) mu += i * static_cast<double>(h[i]);
  mu *= scale;
  double mu1 = 0.0, q1 = 0.0, max_sigma = 0.0;
  int best = 0;
  for (int i = 0; i < 256; ++i) {
    const double p_i = static_cast<double>(h[i]) * scale;
    mu1 *= q1;
    q1 += p_i;
    const double q2 = 1.0 - q1;
    if (std::min(q1, q2) < FLT_EPSILON || std::max(q1, q2) > 1.0 - FLT_EPSILON) continue;
    mu1 = (mu1 + i * p_i) / q1;
    const double mu2 = (mu - q1 * mu1) / q2;
    const double sigma = q1 * q2 * (mu1 - mu2) * (mu1 - mu2);
    if (sigma > max_sigma) {
      max_sigma = sigma;
      best = i;
    }
  }
  return best;
}

void equalize(const ImageView& src, const ImageView& dst, const EqualizeParams& params) {
  check_u8_pair(src, dst, "equalize");
  const unsigned long long pixels = pixel_count(src);
  if (src.format.channels == 1 || params.per_channel) {
    std::array<Table, 3> tables{};
    for (int c = 0; c < colour_channels(src); ++c)
      tables[static_cast<std::size_t>(c)] = tone::equalize_table(channel_histogram(src, c), pixels);
    apply(src, dst, tables, false);
    return;
  }
  // Luminance: one table from the histogram of Y; colour channels move by table[Y] - Y.
  const int channels = src.format.channels;
  Histogram h{};
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x) {
      const std::uint8_t* p = src.row<const std::uint8_t>(y) + x * channels;
      ++h[static_cast<std::size_t>(luminance(p[0], p[1], p[2]))];
    }
  const Table table = tone::equalize_table(h, pixels);
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x) {
      const std::uint8_t* p = src.row<const std::uint8_t>(y) + x * channels;
      std::uint8_t* q = dst.row<std::uint8_t>(y) + x * channels;
      const int lum = luminance(p[0], p[1], p[2]);
      const int shift = table[static_cast<std::size_t>(lum)] - lum;
      std::uint8_t out[4];
      for (int c = 0; c < channels; ++c) out[c] = c < 3 ? static_cast<std::uint8_t>(std::clamp(p[c] + shift, 0, 255)) : p[c];
      for (int c = 0; c < channels; ++c) q[c] = out[c];
    }
}

void threshold(const ImageView& src, const ImageView& dst, const ThresholdParams& params) {
  check_u8_pair(src, dst, "threshold");
  std::array<Table, 3> tables{};
  for (int c = 0; c < colour_channels(src); ++c) {
    int t = params.value;
    if (params.otsu) t = otsu_threshold(channel_histogram(src, c).data(), pixel_count(src));
    tables[static_cast<std::size_t>(c)] = tone::threshold_table(t);
  }
  apply(src, dst, tables, false);
}

void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& params) {
  check_u8_pair(src, dst, "normalize");
  const double clip_count = params.clip_percent / 100.0 * (static_cast<double>(src.width) * src.height);
  std::array<Table, 3> tables{};
  for (int c = 0; c < colour_channels(src); ++c)
    tables[static_cast<std::size_t>(c)] = tone::normalize_table(channel_histogram(src, c), pixel_count(src), clip_count);
  apply(src, dst, tables, false);
}

}  // namespace gpufilter::reference
