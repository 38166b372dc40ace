#include "tone/tone_cpu.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>

#include <opencv2/core.hpp>

#include "common/opencv_image.hpp"
#include "point/point_cpu.hpp"
#include "gpufilter/tone.hpp"
#include "common/parallel_rows.hpp"
#include "tone/tone_tables.hpp"

namespace gpufilter::cpu {
namespace {

using reference::tone::Histogram;
using reference::tone::pixel_count;
using reference::tone::Table;
using Histograms = std::array<Histogram, 3>;

std::size_t colours(const ImageView& v) { return static_cast<std::size_t>(reference::tone::colour_channels(v)); }

// Histograms of the colour channels (the luminance with `luminance`), each band's
// counted apart and summed under a lock.
Histograms count(const ImageView& src, bool luminance) {
  Histograms total{};
  std::mutex mutex;
  const int channels = src.format.channels;
  const int counted = reference::tone::colour_channels(src);
  reference::parallel_rows(src.height, [&](int begin, int end) {
    Histograms band{};
    for (int y = begin; y < end; ++y) {
      const std::uint8_t* row = src.row<const std::uint8_t>(y);
      for (int x = 0; x < src.width; ++x) {
        const std::uint8_t* p = row + x * channels;
        if (luminance)
          ++band[0][static_cast<std::size_t>(reference::tone::luminance(p[0], p[1], p[2]))];
        else
          for (int c = 0; c < counted; ++c) ++band[static_cast<std::size_t>(c)][p[c]];
      }
    }
    const std::lock_guard<std::mutex> lock(mutex);
    for (std::size_t c = 0; c < total.size(); ++c)
      for (std::size_t v = 0; v < 256; ++v) total[c][v] += band[c][v];
  });
  return total;
}

// Each colour channel through its table; alpha unchanged.
void apply(const ImageView& src, const ImageView& dst, const std::array<Table, 3>& tables) {
  const int channels = src.format.channels;
  cv::Mat lut(1, 256, CV_MAKETYPE(CV_8U, channels));
  for (int v = 0; v < 256; ++v)
    for (int c = 0; c < channels; ++c)
      lut.ptr<std::uint8_t>(0)[v * channels + c] =
          c < 3 ? tables[static_cast<std::size_t>(c)][static_cast<std::size_t>(v)] : static_cast<std::uint8_t>(v);
  cv::Mat out = as_mat(dst);
  cv::LUT(as_mat(src), lut, out);
}

// Every colour channel moves by table[Y] - Y, saturated (tone_types.hpp).
void apply_luminance(const ImageView& src, const ImageView& dst, const Table& table) {
  const int channels = src.format.channels;
  reference::parallel_rows(src.height, [&](int begin, int end) {
    for (int y = begin; y < end; ++y) {
      const std::uint8_t* in = src.row<const std::uint8_t>(y);
      std::uint8_t* out = dst.row<std::uint8_t>(y);
      for (int x = 0; x < src.width; ++x) {
        const std::uint8_t* p = in + x * channels;
        std::uint8_t* q = out + x * channels;
        const int lum = reference::tone::luminance(p[0], p[1], p[2]);
        const int shift = table[static_cast<std::size_t>(lum)] - lum;
        std::uint8_t moved[4];
        for (int c = 0; c < channels; ++c)
          moved[c] = c < 3 ? static_cast<std::uint8_t>(std::clamp(p[c] + shift, 0, 255)) : p[c];
        for (int c = 0; c < channels; ++c) q[c] = moved[c];
      }
    }
  });
}

}  // namespace

void equalize(const ImageView& src, const ImageView& dst, const EqualizeParams& params) {
  validate_pair(src, dst, "equalize");
  if (!table_maps(src, dst)) return reference::equalize(src, dst, params);
  const unsigned long long pixels = pixel_count(src);
  if (src.format.channels == 1 || params.per_channel) {
    const Histograms counts = count(src, false);
    std::array<Table, 3> tables{};
    for (std::size_t c = 0; c < colours(src); ++c) tables[c] = reference::tone::equalize_table(counts[c], pixels);
    return apply(src, dst, tables);
  }
  apply_luminance(src, dst, reference::tone::equalize_table(count(src, true)[0], pixels));
}

void threshold(const ImageView& src, const ImageView& dst, const ThresholdParams& params) {
  validate_pair(src, dst, "threshold");
  if (!table_maps(src, dst)) return reference::threshold(src, dst, params);
  std::array<Table, 3> tables{};
  if (params.otsu) {
    const Histograms counts = count(src, false);
    for (std::size_t c = 0; c < colours(src); ++c)
      tables[c] = reference::tone::threshold_table(reference::otsu_threshold(counts[c].data(), pixel_count(src)));
  } else {
    tables.fill(reference::tone::threshold_table(params.value));
  }
  apply(src, dst, tables);
}

void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& params) {
  validate_pair(src, dst, "normalize");
  if (!table_maps(src, dst)) return reference::normalize(src, dst, params);
  const double clip_count = params.clip_percent / 100.0 * (static_cast<double>(src.width) * src.height);
  const Histograms counts = count(src, false);
  std::array<Table, 3> tables{};
  for (std::size_t c = 0; c < colours(src); ++c)
    tables[c] = reference::tone::normalize_table(counts[c], pixel_count(src), clip_count);
  apply(src, dst, tables);
}

}  // namespace gpufilter::cpu
