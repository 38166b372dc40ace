#include "png_filters.hpp"

#include <cstdlib>
#include <cstring>
#include <utility>

namespace gpufilter::cli::png {
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

template <std::size_t BPP>
bool unfilter_fixed(std::uint8_t type, std::uint8_t* row, const std::uint8_t* prior, std::size_t length) {
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

}  // namespace gpufilter::cli::png
