#include "codecs/png_filters.hpp"

#include <cstdlib>
#include <cstring>
#include <utility>

#if defined(__SSE2__) && !defined(GPUFILTER_PNG_SCALAR_FILTERS)
#include <emmintrin.h>
#endif

namespace gpufilter::io::png {
namespace {

// Branch-free Paeth predictor (PNG spec 9.4): the neighbour nearest to a + b - c, ties
// going to a, then b. Selects rather than branches, so loops over it vectorize.
inline int paeth(int a, int b, int c) {
  const int pa = std::abs(b - c);
  const int pb = std::abs(a - c);
  const int pc = std::abs(a + b - 2 * c);
  const int b_or_c = pb <= pc ? b : c;
  return (pa <= pb && pa <= pc) ? a : b_or_c;
}

// Encoding: every output byte depends on input bytes only, so each loop vectorizes.
void filter_sub(const std::uint8_t* row, std::size_t length, std::size_t bpp, std::uint8_t* out) {
  for (std::size_t i = 0; i < bpp && i < length; ++i) out[i] = row[i];
  for (std::size_t i = bpp; i < length; ++i) out[i] = static_cast<std::uint8_t>(row[i] - row[i - bpp]);
}

void filter_up(const std::uint8_t* row, const std::uint8_t* prior, std::size_t length, std::uint8_t* out) {
  for (std::size_t i = 0; i < length; ++i) out[i] = static_cast<std::uint8_t>(row[i] - prior[i]);
}

void filter_average(const std::uint8_t* row, const std::uint8_t* prior, std::size_t length, std::size_t bpp,
                    std::uint8_t* out) {
  for (std::size_t i = 0; i < bpp && i < length; ++i) out[i] = static_cast<std::uint8_t>(row[i] - (prior[i] >> 1));
  for (std::size_t i = bpp; i < length; ++i)
    out[i] = static_cast<std::uint8_t>(row[i] - ((row[i - bpp] + prior[i]) >> 1));
}

void filter_paeth(const std::uint8_t* row, const std::uint8_t* prior, std::size_t length, std::size_t bpp,
                  std::uint8_t* out) {
  for (std::size_t i = 0; i < bpp && i < length; ++i) out[i] = static_cast<std::uint8_t>(row[i] - prior[i]);
  for (std::size_t i = bpp; i < length; ++i)
    out[i] = static_cast<std::uint8_t>(row[i] - paeth(row[i - bpp], prior[i], prior[i - bpp]));
}

// The heuristic's cost: filtered bytes read as signed, summed as magnitudes.
std::uint64_t absolute_sum(const std::uint8_t* data, std::size_t length) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < length; ++i) sum += data[i] < 128 ? data[i] : 256u - data[i];
  return sum;
}

// Decoding: each byte depends on the one bpp before it, reconstructed. BPP is a template
// argument so that the channels of a pixel proceed side by side.
template <std::size_t BPP>
void unfilter_sub(std::uint8_t* row, std::size_t length) {
  for (std::size_t i = BPP; i < length; i += BPP)
    for (std::size_t k = 0; k < BPP; ++k) row[i + k] = static_cast<std::uint8_t>(row[i + k] + row[i + k - BPP]);
}

template <std::size_t BPP>
void unfilter_average(std::uint8_t* row, const std::uint8_t* prior, std::size_t length) {
  for (std::size_t k = 0; k < BPP; ++k) row[k] = static_cast<std::uint8_t>(row[k] + (prior[k] >> 1));
  for (std::size_t i = BPP; i < length; i += BPP)
    for (std::size_t k = 0; k < BPP; ++k)
      row[i + k] = static_cast<std::uint8_t>(row[i + k] + ((row[i + k - BPP] + prior[i + k]) >> 1));
}

template <std::size_t BPP>
void unfilter_paeth(std::uint8_t* row, const std::uint8_t* prior, std::size_t length) {
  for (std::size_t k = 0; k < BPP; ++k) row[k] = static_cast<std::uint8_t>(row[k] + prior[k]);
  for (std::size_t i = BPP; i < length; i += BPP)
    for (std::size_t k = 0; k < BPP; ++k)
      row[i + k] = static_cast<std::uint8_t>(row[i + k] + paeth(row[i + k - BPP], prior[i + k], prior[i + k - BPP]));
}

#if defined(__SSE2__) && !defined(GPUFILTER_PNG_SCALAR_FILTERS)
// Paeth on pixels of 3 to 8 bytes: one pixel at a time, its bytes side by side in 16-bit lanes
// (the chain from pixel to pixel is what limits these filters, not the bytes within one).
template <std::size_t BPP>
inline __m128i load_pixel(const std::uint8_t* bytes) {
  // memcpy for whole words; byte by byte for 3 and 6, which GCC otherwise spills.
  std::uint64_t value = 0;
  if constexpr (BPP == 4 || BPP == 8) {
    std::memcpy(&value, bytes, BPP);
  } else {
    for (std::size_t k = 0; k < BPP; ++k) value |= std::uint64_t{bytes[k]} << (8 * k);
  }
  return _mm_unpacklo_epi8(_mm_cvtsi64_si128(static_cast<long long>(value)), _mm_setzero_si128());
}

template <std::size_t BPP>
inline void store_pixel(__m128i lanes, std::uint8_t* bytes) {
  const auto value = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_packus_epi16(lanes, lanes)));
  if constexpr (BPP == 4 || BPP == 8) {
    std::memcpy(bytes, &value, BPP);
  } else {
    for (std::size_t k = 0; k < BPP; ++k) bytes[k] = static_cast<std::uint8_t>(value >> (8 * k));
  }
}

inline __m128i absolute(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }

// The sum of two bytes' worth, kept to 8 bits.
inline __m128i add_bytes(__m128i x, __m128i y) { return _mm_and_si128(_mm_add_epi16(x, y), _mm_set1_epi16(0xff)); }

template <std::size_t BPP>
void unfilter_paeth_pixels(std::uint8_t* row, const std::uint8_t* prior, std::size_t length) {
  __m128i a = _mm_setzero_si128();  // left, reconstructed
  __m128i c = _mm_setzero_si128();  // above-left
  for (std::size_t i = 0; i < length; i += BPP) {
    const __m128i x = load_pixel<BPP>(row + i);
    const __m128i b = load_pixel<BPP>(prior + i);
    const __m128i b_minus_c = _mm_sub_epi16(b, c);
    const __m128i a_minus_c = _mm_sub_epi16(a, c);
    const __m128i pa = absolute(b_minus_c);
    const __m128i pb = absolute(a_minus_c);
    const __m128i pc = absolute(_mm_add_epi16(b_minus_c, a_minus_c));
    const __m128i smallest = _mm_min_epi16(pa, _mm_min_epi16(pb, pc));
    // a where pa is the smallest, else b where pb is, else c: PNG's order of ties.
    const __m128i take_b = _mm_cmpeq_epi16(smallest, pb);
    const __m128i take_a = _mm_cmpeq_epi16(smallest, pa);
    __m128i predicted = _mm_or_si128(_mm_and_si128(take_b, b), _mm_andnot_si128(take_b, c));
    predicted = _mm_or_si128(_mm_and_si128(take_a, a), _mm_andnot_si128(take_a, predicted));
    a = add_bytes(x, predicted);
    c = b;
    store_pixel<BPP>(a, row + i);
  }
}
#endif

template <std::size_t BPP>
bool unfilter_fixed(std::uint8_t type, std::uint8_t* row, const std::uint8_t* prior, std::size_t length) {
#if defined(__SSE2__) && !defined(GPUFILTER_PNG_SCALAR_FILTERS)
  if constexpr (BPP >= 3) {
    // Measured: 2-3x faster than the scalar loop for Paeth; slower for Sub and Average,
    // whose scalar chains are short enough.
    if (static_cast<Filter>(type) == Filter::Paeth) {
      unfilter_paeth_pixels<BPP>(row, prior, length);
      return true;
    }
  }
#endif
  // A row is a whole number of pixels: length is a multiple of BPP.
  switch (static_cast<Filter>(type)) {
    case Filter::None: return true;
    case Filter::Sub: unfilter_sub<BPP>(row, length); return true;
    case Filter::Up:
      for (std::size_t i = 0; i < length; ++i) row[i] = static_cast<std::uint8_t>(row[i] + prior[i]);
      return true;
    case Filter::Average: unfilter_average<BPP>(row, prior, length); return true;
    case Filter::Paeth: unfilter_paeth<BPP>(row, prior, length); return true;
  }
  return false;
}

}  // namespace

void filter_row(Filter filter, const std::uint8_t* row, const std::uint8_t* prior, std::size_t length, int bpp,
                std::uint8_t* out) {
  const auto step = static_cast<std::size_t>(bpp);
  switch (filter) {
    case Filter::None: std::memcpy(out, row, length); break;
    case Filter::Sub: filter_sub(row, length, step, out); break;
    case Filter::Up: filter_up(row, prior, length, out); break;
    case Filter::Average: filter_average(row, prior, length, step, out); break;
    case Filter::Paeth: filter_paeth(row, prior, length, step, out); break;
  }
}

Filter filter_row_adaptive(const std::uint8_t* row, const std::uint8_t* prior, std::size_t length, int bpp,
                           unsigned allowed, std::uint8_t* out, std::uint8_t* scratch) {
  // The best candidate so far lives in `best`, the next one is written to `trial`.
  std::uint8_t* best = out + 1;
  std::uint8_t* trial = scratch;
  Filter chosen = Filter::None;
  std::uint64_t best_cost = ~std::uint64_t{0};
  for (int f = 0; f < kFilterCount; ++f) {
    const auto filter = static_cast<Filter>(f);
    if ((allowed & filter_bit(filter)) == 0) continue;
    filter_row(filter, row, prior, length, bpp, trial);
    const std::uint64_t cost = absolute_sum(trial, length);
    if (cost < best_cost) {
      best_cost = cost;
      chosen = filter;
      std::swap(best, trial);
    }
  }
  if (best != out + 1) std::memcpy(out + 1, best, length);
  out[0] = static_cast<std::uint8_t>(chosen);
  return chosen;
}

bool unfilter_row(std::uint8_t type, std::uint8_t* row, const std::uint8_t* prior, std::size_t length, int bpp) {
  switch (bpp) {
    case 1: return unfilter_fixed<1>(type, row, prior, length);
    case 2: return unfilter_fixed<2>(type, row, prior, length);
    case 3: return unfilter_fixed<3>(type, row, prior, length);
    case 4: return unfilter_fixed<4>(type, row, prior, length);
    case 6: return unfilter_fixed<6>(type, row, prior, length);
    case 8: return unfilter_fixed<8>(type, row, prior, length);
    default: return false;
  }
}

}  // namespace gpufilter::io::png
