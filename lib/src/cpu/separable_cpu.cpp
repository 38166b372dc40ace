// Each task takes a band of output rows and walks it top to bottom with a window of
// 2*ry+1 rows: every source row the band reads is loaded once into a padded row (columns
// through the border map, premultiplied where the spec says), filtered horizontally by
// each mask, and kept until the last output row that reads it. An output row is then the
// vertical sum over the window, the output rule, and a rounding store. The window is a
// few hundred KB, so both passes work in the cache. The passes are plain loops over
// contiguous rows, built twice (AVX2 with FMA, and the baseline) and picked at run time.
#include "cpu/separable_cpu.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>

#include "cpu/filter_output.hpp"
#include "reference/border_index.hpp"
#include "reference/pixel_access.hpp"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GPUFILTER_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define GPUFILTER_VECTOR_CLONES
#endif

namespace gpufilter::cpu {
namespace {

// Both passes go over a row in blocks whose sums stay in the L1 cache while every tap
// adds to them (a row of a 24 MP RGB photo is 72 KB of floats).
constexpr int kBlock = 512;

// out[i] = sum_k w[k] * in[i + k * step], i < n.
template <class A>
GPUFILTER_VECTOR_CLONES void weighted_sum(const A* in, int n, int step, const float* w, int taps, A* out) {
  for (int begin = 0; begin < n; begin += kBlock) {
    const int end = std::min(n, begin + kBlock);
    const A w0 = w[0];
    for (int i = begin; i < end; ++i) out[i] = w0 * in[i];
    for (int k = 1; k < taps; ++k) {
      const A wk = w[k];
      const A* shifted = in + static_cast<std::ptrdiff_t>(k) * step;
      for (int i = begin; i < end; ++i) out[i] += wk * shifted[i];
    }
  }
}

// out[i] = sum_k w[k] * rows[k][i], i < n.
template <class A>
GPUFILTER_VECTOR_CLONES void weighted_rows(const A* const* rows, int n, const float* w, int taps, A* out) {
  for (int begin = 0; begin < n; begin += kBlock) {
    const int end = std::min(n, begin + kBlock);
    const A w0 = w[0];
    for (int i = begin; i < end; ++i) out[i] = w0 * rows[0][i];
    for (int k = 1; k < taps; ++k) {
      const A wk = w[k];
      const A* row = rows[k];
      for (int i = begin; i < end; ++i) out[i] += wk * row[i];
    }
  }
}

// Rounds half to even and saturates, as the reference's write_channel does.
template <class T, class A>
GPUFILTER_VECTOR_CLONES void store_row(const A* in, int n, A max, T* out) {
  if constexpr (std::is_floating_point_v<T>) {
    (void)max;
    for (int i = 0; i < n; ++i) out[i] = static_cast<T>(in[i]);
  } else {
    for (int i = 0; i < n; ++i) out[i] = static_cast<T>(std::nearbyint(std::min(std::max(in[i], A(0)), max)));
  }
}

template <class T, class A>
GPUFILTER_VECTOR_CLONES void load_values(const T* in, int n, A* out) {
  for (int i = 0; i < n; ++i) out[i] = static_cast<A>(in[i]);
}

// T: the stored channel type; A: the type the sums are made in.
template <class T, class A>
class SeparableRun {
 public:
  SeparableRun(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border)
      : src_(src), dst_(dst), spec_(spec), border_(border), channels_(src.format.channels), width_(src.width),
        rx_(static_cast<int>(spec.separable.front().x.size()) / 2),
        ry_(static_cast<int>(spec.separable.front().y.size()) / 2),
        max_(static_cast<A>(src.format.type == ChannelType::U8    ? 255.0
                            : src.format.type == ChannelType::U16 ? 65535.0
                                                                  : 1.0)),
        premultiply_(channels_ == 4 && spec.alpha == AlphaMode::Premultiply),
        columns_(static_cast<std::size_t>(width_ + 2 * rx_)) {
    for (int x = 0; x < width_ + 2 * rx_; ++x)
      columns_[static_cast<std::size_t>(x)] = reference::border_index(x - rx_, width_, border.mode);
    for (int c = 0; c < channels_; ++c)
      constant_[static_cast<std::size_t>(c)] =
          static_cast<A>(reference::stored_value(border.value[static_cast<std::size_t>(c)], src.format.type));
  }

  // Output rows [y0, y1).
  void rows(int y0, int y1) const {
    const int window = 2 * ry_ + 1;
    const std::size_t padded = static_cast<std::size_t>(width_ + 2 * rx_) * static_cast<std::size_t>(channels_);
    const std::size_t row = static_cast<std::size_t>(width_) * static_cast<std::size_t>(channels_);
    const std::size_t masks = spec_.separable.size();
    // The window's padded source rows and, per mask, their horizontal sums.
    std::vector<A> source(padded * static_cast<std::size_t>(window));
    std::vector<A> horizontal(row * static_cast<std::size_t>(window) * masks);
    std::vector<A> sums(row * masks);
    std::vector<const A*> taps(static_cast<std::size_t>(window));
    const int n = static_cast<int>(row);
    for (int sy = y0 - ry_; sy < y1 + ry_; ++sy) {
      const std::size_t slot = static_cast<std::size_t>((sy - (y0 - ry_)) % window);
      A* padded_row = source.data() + slot * padded;
      load(sy, padded_row);
      for (std::size_t k = 0; k < masks; ++k) {
        const SeparableMask& mask = spec_.separable[k];
        weighted_sum(padded_row, n, channels_, mask.x.data(), static_cast<int>(mask.x.size()),
                     horizontal.data() + (k * static_cast<std::size_t>(window) + slot) * row);
      }
      const int y = sy - ry_;  // the output row whose window is now complete
      if (y < y0) continue;
      for (std::size_t k = 0; k < masks; ++k) {
        const SeparableMask& mask = spec_.separable[k];
        for (int j = 0; j < window; ++j) {
          // Rows y - ry .. y + ry sit in consecutive slots, starting after this one.
          const std::size_t s = (slot + 1 + static_cast<std::size_t>(j)) % static_cast<std::size_t>(window);
          taps[static_cast<std::size_t>(j)] = horizontal.data() + (k * static_cast<std::size_t>(window) + s) * row;
        }
        weighted_rows(taps.data(), n, mask.y.data(), window, sums.data() + k * row);
      }
      const std::size_t centre_slot = (slot + 1 + static_cast<std::size_t>(ry_)) % static_cast<std::size_t>(window);
      const A* centre = source.data() + centre_slot * padded + static_cast<std::size_t>(rx_ * channels_);
      finish_row<A>(spec_, channels_, width_, max_, centre, sums.data(), masks > 1 ? sums.data() + row : nullptr);
      store_row(sums.data(), n, max_, dst_.row<T>(y));
    }
  }

 private:
  // Source row sy (any integer) as the filter sees it, with rx pixels each side.
  void load(int sy, A* out) const {
    const int y = reference::border_index(sy, src_.height, border_.mode);
    const int c = channels_;
    const int total = width_ + 2 * rx_;
    if (y < 0) {
      for (int x = 0; x < total; ++x)
        for (int i = 0; i < c; ++i) out[x * c + i] = constant_[static_cast<std::size_t>(i)];
    } else {
      const T* in = src_.row<const T>(y);
      load_values(in, width_ * c, out + rx_ * c);
      for (int x = 0; x < total; ++x) {
        if (x >= rx_ && x < rx_ + width_) continue;
        const int sx = columns_[static_cast<std::size_t>(x)];
        for (int i = 0; i < c; ++i)
          out[x * c + i] = sx < 0 ? constant_[static_cast<std::size_t>(i)] : static_cast<A>(in[sx * c + i]);
      }
    }
    if (premultiply_) premultiply_row(out, total, max_);
  }

  const ImageView& src_;
  const ImageView& dst_;
  const FilterSpec& spec_;
  const Border& border_;
  int channels_, width_, rx_, ry_;
  A max_;
  bool premultiply_;
  std::vector<int> columns_;
  std::array<A, 4> constant_{};
};

template <class T, class A>
void run(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border) {
  const SeparableRun<T, A> filter(src, dst, spec, border);
  // A few bands per thread; each reads 2*ry rows beyond its own.
  const int threads = std::max(1, cv::getNumThreads());
  const int bands = std::max(1, std::min(src.height / 16, 4 * threads));
  cv::parallel_for_(cv::Range(0, bands), [&](const cv::Range& range) {
    for (int b = range.start; b < range.end; ++b)
      filter.rows(static_cast<int>(static_cast<long long>(src.height) * b / bands),
                  static_cast<int>(static_cast<long long>(src.height) * (b + 1) / bands));
  });
}

}  // namespace

void separable_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border) {
  // Float images are summed in double: their contract is 1e-4 absolute, and dividing by a
  // small filtered alpha (premultiplied RGBA) magnifies float's rounding beyond it.
  switch (src.format.type) {
    case ChannelType::U8: run<std::uint8_t, float>(src, dst, spec, border); break;
    case ChannelType::U16: run<std::uint16_t, float>(src, dst, spec, border); break;
    case ChannelType::F32: run<float, double>(src, dst, spec, border); break;
  }
}

}  // namespace gpufilter::cpu
