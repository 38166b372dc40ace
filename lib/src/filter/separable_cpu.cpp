// Each task takes a band of output rows. Without premultiplied alpha, an output row is the
// vertical sum of the 2*ry+1 source rows it reads, taken straight from the image (rows
// through the border map, a constant row beyond a constant border) and converted in the
// loop, into one padded row whose margins come from the column border map; then, a block
// of pixels at a time in the L1 cache, the horizontal sum over that row, the output rule
// and a rounding store. The vertical pass reads each source sample at its stored width
// rather than as a float sum (a quarter of the bytes for u8).
//
// Premultiplied RGBA must be weighted by alpha before any sum, so there the band is walked
// top to bottom with a window of 2*ry+1 rows: every source row the band reads is loaded
// once into a padded, premultiplied row, filtered horizontally by each mask, and kept
// until the last output row that reads it; an output row is the vertical sum over the
// window.
//
// The passes are plain loops over contiguous rows, built twice (AVX2 with FMA, and the
// baseline) and picked at run time; the vertical pass over bytes has its own AVX2 loop.
// Symmetric masks (every Gaussian and box) add each pair of mirrored samples before
// multiplying by their weight.
#include "filter/separable_cpu.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <opencv2/core.hpp>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#endif

#include "filter/filter_output.hpp"
#include "common/vector_build.hpp"
#include "common/border_index.hpp"
#include "common/pixel_access.hpp"

namespace gpufilter::cpu {
namespace {

// Both passes make lanes<A> sums at a time (256 bytes: eight AVX registers), held in
// registers while every tap adds to them, so each tap costs a load and a multiply-add per
// vector and the sums touch memory once. Eight independent sums keep both FMA units busy.
template <class A>
constexpr int lanes = 256 / static_cast<int>(sizeof(A));
// The direct path's horizontal pass, output rule and store work on blocks of about this
// many values (a whole number of lanes), so a block's sums stay in the L1 cache.
constexpr int kBlock = 512;

#if defined(__GNUC__) && !defined(__clang__)
#define GPUFILTER_UNROLL _Pragma("GCC unroll 64")
#else
#define GPUFILTER_UNROLL
#endif

// out[i] = sum_k w[k] * rows[k][i], i < n (T: the rows' type, converted to A in the sum).
// Symmetric (w[k] == w[taps-1-k]): each pair of rows is added before the multiply, the
// centre first, then the pairs from the outside in; otherwise the terms go in tap order.
template <bool Symmetric, class T, class A>
GPUFILTER_VECTOR_CLONES void weighted_rows_in(const T* const* rows, int n, const float* w, int taps,
                                              A* __restrict out) {
  constexpr int L = lanes<A>;
  const int first = Symmetric ? taps / 2 : 0;
  const int last = Symmetric ? taps / 2 : taps;  // taps after `first`: k in [0, last) skips it
  int i = 0;
  for (; i + L <= n; i += L) {
    A sums[L];
    const T* centre = rows[first] + i;
    const A wc = w[first];
    GPUFILTER_UNROLL
    for (int j = 0; j < L; ++j) sums[j] = wc * static_cast<A>(centre[j]);
    for (int k = Symmetric ? 0 : 1; k < last; ++k) {
      const T* row = rows[k] + i;
      const T* mirror = rows[taps - 1 - k] + i;
      const A wk = w[k];
      if constexpr (Symmetric) {
        GPUFILTER_UNROLL
        for (int j = 0; j < L; ++j) sums[j] += wk * (static_cast<A>(row[j]) + static_cast<A>(mirror[j]));
      } else {
        (void)mirror;
        GPUFILTER_UNROLL
        for (int j = 0; j < L; ++j) sums[j] += wk * static_cast<A>(row[j]);
      }
    }
    GPUFILTER_UNROLL
    for (int j = 0; j < L; ++j) out[i + j] = sums[j];
  }
  // The last n % L, a tap at a time.
  const A wc = w[first];
  for (int j = i; j < n; ++j) out[j] = wc * static_cast<A>(rows[first][j]);
  for (int k = Symmetric ? 0 : 1; k < last; ++k) {
    const A wk = w[k];
    const T* row = rows[k];
    const T* mirror = rows[taps - 1 - k];
    if constexpr (Symmetric) {
      for (int j = i; j < n; ++j) out[j] += wk * (static_cast<A>(row[j]) + static_cast<A>(mirror[j]));
    } else {
      (void)mirror;
      for (int j = i; j < n; ++j) out[j] += wk * static_cast<A>(row[j]);
    }
  }
}

// (Two functions: built as one, the compiler leaves one of the two loops scalar.)
template <class T, class A>
void weighted_rows(const T* const* rows, int n, const float* w, int taps, bool symmetric, A* out) {
  if (symmetric)
    weighted_rows_in<true>(rows, n, w, taps, out);
  else
    weighted_rows_in<false>(rows, n, w, taps, out);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GPUFILTER_U8_KERNEL 1
// weighted_rows for bytes into float with AVX2 and FMA: the compiler widens bytes to
// floats through 16-bit steps (seven shuffles per 32 values), where one zero-extending
// load per eight values does. The same sums in the same order as the FMA clone (a pair
// of bytes is added exactly, as integers or as floats).
__attribute__((target("avx2,fma"), always_inline)) inline __m256i load_bytes(const std::uint8_t* p) {
  return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}

template <bool Symmetric>
__attribute__((target("avx2,fma"))) void weighted_byte_rows(const std::uint8_t* const* rows, int n, const float* w,
                                                            int taps, float* __restrict out) {
  const int first = Symmetric ? taps / 2 : 0;
  const int last = Symmetric ? taps / 2 : taps;
  int i = 0;
  for (; i + 64 <= n; i += 64) {
    __m256 sums[8];
    const __m256 wc = _mm256_set1_ps(w[first]);
    for (int j = 0; j < 8; ++j) sums[j] = _mm256_mul_ps(wc, _mm256_cvtepi32_ps(load_bytes(rows[first] + i + 8 * j)));
    for (int k = Symmetric ? 0 : 1; k < last; ++k) {
      const std::uint8_t* row = rows[k] + i;
      const std::uint8_t* mirror = rows[taps - 1 - k] + i;
      const __m256 wk = _mm256_set1_ps(w[k]);
      for (int j = 0; j < 8; ++j) {
        __m256i v = load_bytes(row + 8 * j);
        if constexpr (Symmetric) v = _mm256_add_epi32(v, load_bytes(mirror + 8 * j));
        sums[j] = _mm256_fmadd_ps(wk, _mm256_cvtepi32_ps(v), sums[j]);
      }
    }
    for (int j = 0; j < 8; ++j) _mm256_storeu_ps(out + i + 8 * j, sums[j]);
  }
  for (; i < n; ++i) {
    float sum = w[first] * static_cast<float>(rows[first][i]);
    for (int k = Symmetric ? 0 : 1; k < last; ++k) {
      const int v = Symmetric ? rows[k][i] + rows[taps - 1 - k][i] : rows[k][i];
      sum = std::fma(w[k], static_cast<float>(v), sum);
    }
    out[i] = sum;
  }
}

bool has_avx2_fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}
#endif

// out[i] = sum_k w[k] * in[i + k * step], i < n.
template <class A>
void weighted_sum(const A* in, int n, int step, const float* w, int taps, bool symmetric, A* out) {
  std::array<const A*, 64> shifted;
  if (taps > static_cast<int>(shifted.size())) {
    std::vector<const A*> many(static_cast<std::size_t>(taps));
    for (int k = 0; k < taps; ++k) many[static_cast<std::size_t>(k)] = in + static_cast<std::ptrdiff_t>(k) * step;
    weighted_rows(many.data(), n, w, taps, symmetric, out);
    return;
  }
  for (int k = 0; k < taps; ++k) shifted[static_cast<std::size_t>(k)] = in + static_cast<std::ptrdiff_t>(k) * step;
  weighted_rows(shifted.data(), n, w, taps, symmetric, out);
}

// Whether w[k] == w[size-1-k] for every k (an odd number of taps, so a centre one).
bool is_symmetric(const std::vector<float>& w) {
  if (w.size() % 2 == 0) return false;
  for (std::size_t k = 0; k < w.size() / 2; ++k)
    if (w[k] != w[w.size() - 1 - k]) return false;
  return true;
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

// filter_output.hpp's rule, built with the passes.
template <class A>
GPUFILTER_VECTOR_CLONES void finish(const FilterSpec& spec, int channels, int width, A max, const A* centre, A* sums0,
                                    const A* sums1) {
  finish_row<A>(spec, channels, width, max, centre, sums0, sums1);
}

// T: the stored channel type; A: the type the sums are made in.
template <class T, class A>
class SeparableRun {
 public:
  SeparableRun(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border)
      : src_(src), dst_(dst), spec_(spec), border_(border), channels_(src.format.channels), width_(src.width),
        rx_(static_cast<int>(spec.separable.front().x.size()) / 2),
        ry_(static_cast<int>(spec.separable.front().y.size()) / 2),
        max_(static_cast<A>(src.format.max_value())),
        premultiply_(channels_ == 4 && spec.alpha == AlphaMode::Premultiply),
        columns_(static_cast<std::size_t>(width_ + 2 * rx_)) {
    for (int x = 0; x < width_ + 2 * rx_; ++x)
      columns_[static_cast<std::size_t>(x)] = reference::border_index(x - rx_, width_, border.mode);
    for (int c = 0; c < channels_; ++c)
      constant_[static_cast<std::size_t>(c)] =
          static_cast<A>(reference::stored_value(border.value[static_cast<std::size_t>(c)], src.format.type));
    for (const SeparableMask& mask : spec.separable) {
      x_symmetric_.push_back(is_symmetric(mask.x));
      y_symmetric_.push_back(is_symmetric(mask.y));
    }
    if (!premultiply_) {
      // Columns beyond a constant border read the constant in every row.
      for (const SeparableMask& mask : spec.separable) {
        A sum = 0;
        for (float w : mask.y) sum += static_cast<A>(w);
        y_sums_.push_back(sum);
      }
      // A row beyond a constant border, as stored values (exact in T: stored_value rounds to T).
      if (border.mode == BorderMode::Constant) {
        constant_row_.resize(static_cast<std::size_t>(width_) * static_cast<std::size_t>(channels_));
        for (std::size_t i = 0; i < constant_row_.size(); ++i)
          constant_row_[i] = static_cast<T>(constant_[i % static_cast<std::size_t>(channels_)]);
      }
    }
  }

  // Output rows [y0, y1).
  void rows(int y0, int y1) const {
    if (premultiply_)
      window_rows(y0, y1);
    else
      direct_rows(y0, y1);
  }

 private:
  // Each output row from the source rows it reads: the vertical sum per mask into a padded
  // row, then, a block of pixels at a time (in the L1 cache), the horizontal sums, the
  // output rule and the store.
  void direct_rows(int y0, int y1) const {
    const int window = 2 * ry_ + 1;
    const int c = channels_;
    const std::size_t padded = static_cast<std::size_t>(width_ + 2 * rx_) * static_cast<std::size_t>(c);
    const std::size_t masks = spec_.separable.size();
    const int block = lanes<A> * std::max(1, kBlock / (lanes<A> * c));  // pixels
    const std::size_t block_values = static_cast<std::size_t>(block) * static_cast<std::size_t>(c);
    // The centre's own values: the detail of Unsharp, the alpha that Keep copies.
    const bool needs_centre =
        spec_.output == FilterOutput::Unsharp || (c == 4 && spec_.alpha == AlphaMode::Keep);
    std::vector<A> vertical(padded * masks);
    std::vector<A> sums(block_values * masks);
    std::vector<A> centre(needs_centre ? block_values : 0);
    std::vector<const T*> taps(static_cast<std::size_t>(window));
    for (int y = y0; y < y1; ++y) {
      for (int j = 0; j < window; ++j) {
        const int sy = reference::border_index(y - ry_ + j, src_.height, border_.mode);
        taps[static_cast<std::size_t>(j)] = sy < 0 ? constant_row_.data() : src_.row<const T>(sy);
      }
      for (std::size_t k = 0; k < masks; ++k) {
        A* row = vertical.data() + k * padded;
        A* middle = row + static_cast<std::size_t>(rx_ * c);
        vertical_sum(taps.data(), width_ * c, spec_.separable[k].y.data(), window, y_symmetric_[k] != 0, middle);
        // The rx columns each side, left then right.
        for (int m = 0; m < 2 * rx_; ++m) {
          const int x = m < rx_ ? m : width_ + m;
          const int sx = columns_[static_cast<std::size_t>(x)];
          for (int i = 0; i < c; ++i)
            row[x * c + i] = sx < 0 ? constant_[static_cast<std::size_t>(i)] * y_sums_[k] : middle[sx * c + i];
        }
      }
      const T* in = src_.row<const T>(y);
      T* out = dst_.row<T>(y);
      for (int x0 = 0; x0 < width_; x0 += block) {
        const int pixels = std::min(block, width_ - x0);
        const int n = pixels * c;
        const std::size_t first = static_cast<std::size_t>(x0) * static_cast<std::size_t>(c);
        for (std::size_t k = 0; k < masks; ++k) {
          const SeparableMask& mask = spec_.separable[k];
          weighted_sum(vertical.data() + k * padded + first, n, c, mask.x.data(), static_cast<int>(mask.x.size()),
                       x_symmetric_[k] != 0, sums.data() + k * block_values);
        }
        if (needs_centre) load_values(in + first, n, centre.data());
        finish(spec_, c, pixels, max_, centre.data(), sums.data(), masks > 1 ? sums.data() + block_values : nullptr);
        store_row(sums.data(), n, max_, out + first);
      }
    }
  }

  // weighted_rows over source rows, through the byte loop where it applies.
  static void vertical_sum(const T* const* rows, int n, const float* w, int taps, bool symmetric, A* out) {
#ifdef GPUFILTER_U8_KERNEL
    if constexpr (std::is_same_v<T, std::uint8_t> && std::is_same_v<A, float>) {
      if (has_avx2_fma()) {
        if (symmetric)
          weighted_byte_rows<true>(rows, n, w, taps, out);
        else
          weighted_byte_rows<false>(rows, n, w, taps, out);
        return;
      }
    }
#endif
    weighted_rows(rows, n, w, taps, symmetric, out);
  }

  // Each output row from a window of horizontally filtered rows (premultiplied RGBA).
  void window_rows(int y0, int y1) const {
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
        weighted_sum(padded_row, n, channels_, mask.x.data(), static_cast<int>(mask.x.size()), x_symmetric_[k] != 0,
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
        weighted_rows(taps.data(), n, mask.y.data(), window, y_symmetric_[k] != 0, sums.data() + k * row);
      }
      const std::size_t centre_slot = (slot + 1 + static_cast<std::size_t>(ry_)) % static_cast<std::size_t>(window);
      const A* centre = source.data() + centre_slot * padded + static_cast<std::size_t>(rx_ * channels_);
      finish(spec_, channels_, width_, max_, centre, sums.data(), masks > 1 ? sums.data() + row : nullptr);
      store_row(sums.data(), n, max_, dst_.row<T>(y));
    }
  }

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
  std::vector<char> x_symmetric_, y_symmetric_;  // per mask: is_symmetric
  std::vector<A> y_sums_;                          // per mask, the sum of its vertical taps (direct path)
  std::vector<T> constant_row_;                    // the row beyond a Constant border (direct path)
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
