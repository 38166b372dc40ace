// Each task counts a band of rows into tallies of its own and adds them to the total under
// a lock. A sample's bin comes from the reference's formula in double: for 8- and 16-bit
// images once per possible value, into a table, so counting is a table look-up and an
// increment; floats evaluate it per sample. The table holds where a sample's count lies
// in the tally (bin times channels), and samples outside the range go to a spare bin that
// is dropped, so the loop has no branch. Two tallies take even and odd pixels in turn:
// neighbours of one value (a flat area) then increment different counters instead of
// waiting on each other's stores.
#include "statistics/histogram_cpu.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>
#include <type_traits>
#include <vector>

#include <opencv2/core.hpp>

#include "common/vector_build.hpp"
#include "gpufilter/error.hpp"

namespace gpufilter::cpu {
namespace {

// The reference's bin of v (reference/histogram_reference.cpp), as its offset in a tally
// of `channels` counts per bin; `spare` (the bin after the last) where v is not counted.
struct BinRule {
  double lo, hi, scale;
  long long bins;
  int channels;

  BinRule(const HistogramParams& params, int channel_count)
      : lo(params.lo), hi(params.hi), scale(static_cast<double>(params.bins) / (params.hi - params.lo)),
        bins(params.bins), channels(channel_count) {}

  std::size_t spare() const { return static_cast<std::size_t>(bins) * static_cast<std::size_t>(channels); }

  GPUFILTER_INLINE std::size_t offset(double v) const {
    if (!(v >= lo && v <= hi)) return spare();
    const double offset_from_lo = v - lo;
    const double scaled = offset_from_lo * scale;
    // v >= lo, so scaled >= 0 (or -0), where truncation is the reference's floor (and
    // needs no call to the C library where the baseline build has no rounding instruction).
    long long bin = static_cast<long long>(scaled);
    if (bin > bins - 1) bin = bins - 1;
    return static_cast<std::size_t>(bin) * static_cast<std::size_t>(channels);
  }
};

using Tally = std::vector<std::uint64_t>;
using Counts = std::vector<std::uint32_t>;

// Counts one row of `width` pixels of CN channels into `even` and `odd` (each spare() +
// CN long) by pixel parity; `slot(v)` gives a sample's offset.
template <int CN, class T, class Slot>
GPUFILTER_INLINE void count_row(const T* row, int width, const Slot& slot, std::uint32_t* even, std::uint32_t* odd) {
  int x = 0;
  for (; x + 1 < width; x += 2) {
    const T* p = row + static_cast<std::ptrdiff_t>(x) * CN;
    for (int c = 0; c < CN; ++c) ++even[slot(p[c]) + static_cast<std::size_t>(c)];
    for (int c = 0; c < CN; ++c) ++odd[slot(p[CN + c]) + static_cast<std::size_t>(c)];
  }
  if (x < width)
    for (int c = 0; c < CN; ++c) ++even[slot(row[static_cast<std::ptrdiff_t>(x) * CN + c]) + static_cast<std::size_t>(c)];
}

// Rows [begin, end) into `total`: 32-bit counts, added to the 64-bit ones before any can
// overflow (at most 2^31 pixels between).
template <int CN, class T, class Slot>
void count_rows(const ImageView& src, int begin, int end, const Slot& slot, Tally& total) {
  Counts even(total.size(), 0), odd(total.size(), 0);
  const auto flush = [&] {
    for (std::size_t i = 0; i < total.size(); ++i) total[i] += static_cast<std::uint64_t>(even[i]) + odd[i];
    std::fill(even.begin(), even.end(), 0u);
    std::fill(odd.begin(), odd.end(), 0u);
  };
  std::uint64_t pending = 0;
  for (int y = begin; y < end; ++y) {
    if (pending + static_cast<std::uint64_t>(src.width) > (1ull << 31)) {
      flush();
      pending = 0;
    }
    count_row<CN>(src.row<const T>(y), src.width, slot, even.data(), odd.data());
    pending += static_cast<std::uint64_t>(src.width);
  }
  flush();
}

template <class T, class Slot>
void count_rows_of(const ImageView& src, int begin, int end, const Slot& slot, Tally& total) {
  switch (src.format.channels) {
    case 1: count_rows<1, T>(src, begin, end, slot, total); return;
    case 3: count_rows<3, T>(src, begin, end, slot, total); return;
    default: count_rows<4, T>(src, begin, end, slot, total); return;
  }
}

template <class T>
void count_samples(const ImageView& src, double* counts, const HistogramParams& params) {
  const int channels = src.format.channels;
  const BinRule rule(params, channels);
  const std::size_t tally_size = rule.spare() + static_cast<std::size_t>(channels);
  std::vector<std::uint32_t> table;
  if constexpr (!std::is_floating_point_v<T>) {
    table.resize(static_cast<std::size_t>(std::numeric_limits<T>::max()) + 1);
    for (std::size_t v = 0; v < table.size(); ++v) table[v] = static_cast<std::uint32_t>(rule.offset(static_cast<double>(v)));
  }
  Tally total(tally_size, 0);
  std::mutex mutex;
  const int tasks = std::max(1, std::min(src.height, cv::getNumThreads()));
  cv::parallel_for_(
      cv::Range(0, src.height),
      [&](const cv::Range& rows) {
        Tally band(tally_size, 0);
        if constexpr (std::is_floating_point_v<T>) {
          count_rows_of<T>(src, rows.start, rows.end, [&](T v) { return rule.offset(static_cast<double>(v)); }, band);
        } else {
          const std::uint32_t* slots = table.data();
          count_rows_of<T>(src, rows.start, rows.end, [slots](T v) { return static_cast<std::size_t>(slots[v]); }, band);
        }
        const std::lock_guard<std::mutex> lock(mutex);
        for (std::size_t i = 0; i < tally_size; ++i) total[i] += band[i];
      },
      tasks);
  for (std::size_t i = 0; i < rule.spare(); ++i) counts[i] = static_cast<double>(total[i]);
}

}  // namespace

void histogram(const ImageView& src, double* counts, const HistogramParams& params) {
  validate_view(src, "histogram");
  check_histogram_params(params);
  switch (src.format.type) {
    case ChannelType::U8: count_samples<std::uint8_t>(src, counts, params); return;
    case ChannelType::U16: count_samples<std::uint16_t>(src, counts, params); return;
    case ChannelType::F32: count_samples<float>(src, counts, params); return;
  }
  throw Error(ErrorCode::UnsupportedFormat, "histogram: unsupported format " + src.format.name());
}

}  // namespace gpufilter::cpu
