// The taps of every output column and row are planned once: a fixed number per output
// coordinate (the most any has; the shorter padded with zero weights), source columns
// premultiplied by the channel count. A task takes a band of output rows; for each row the
// vertical pass sums its source rows into a float row a block at a time, then the
// horizontal pass, a block of output pixels at a time, moves each tap's source pixels into
// a contiguous run of its own and sums the runs value by value, so that the sums run as a
// vector loop whatever the channels (gathering inside that loop kept it scalar). 8-bit
// linear enlarging runs the passes the other way round: the horizontal pass once per
// source row, kept in float, then each output row blends the two it needs, as summing
// rows first would run the horizontal pass once per output row, the more numerous. The
// sums are plain loops built for AVX2 with FMA and for the baseline (vector_build.hpp).
#include "geometry/resize_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/vector_build.hpp"
#include "geometry/resize_taps.hpp"

namespace gpufilter::cpu {
namespace {

// One axis: output coordinate d reads index[d * taps + k] with weight[d * taps + k].
struct AxisPlan {
  int taps = 1;
  std::vector<int> index;
  std::vector<float> weight;
};

AxisPlan plan_axis(int n, int out, ResizeFilter filter, int stride) {
  std::vector<std::vector<reference::Tap>> all(static_cast<std::size_t>(out));
  AxisPlan plan;
  for (int d = 0; d < out; ++d) {
    all[static_cast<std::size_t>(d)] = reference::axis_taps(d, n, out, filter);
    plan.taps = std::max(plan.taps, static_cast<int>(all[static_cast<std::size_t>(d)].size()));
  }
  const std::size_t size = static_cast<std::size_t>(out) * static_cast<std::size_t>(plan.taps);
  plan.index.assign(size, 0);
  plan.weight.assign(size, 0.0f);
  for (int d = 0; d < out; ++d) {
    const std::vector<reference::Tap>& taps = all[static_cast<std::size_t>(d)];
    for (int k = 0; k < plan.taps; ++k) {
      const std::size_t at = static_cast<std::size_t>(d) * static_cast<std::size_t>(plan.taps) + static_cast<std::size_t>(k);
      // Padding reads the first tap's pixel with no weight, so it stays inside the image.
      const bool real = k < static_cast<int>(taps.size());
      plan.index[at] = (real ? taps[static_cast<std::size_t>(k)].index : taps.front().index) * stride;
      plan.weight[at] = real ? static_cast<float>(taps[static_cast<std::size_t>(k)].weight) : 0.0f;
    }
  }
  return plan;
}

// Values per block of the vertical pass: the block's sums stay in the L1 cache while each
// source row adds to them.
constexpr int kRowBlock = 2048;

// out[i] = sum_k w[k] * rows[k][i], i < n.
template <class T>
GPUFILTER_VECTOR_CLONES void weighted_source_rows(const T* const* rows, const float* w, int taps, int n,
                                                  float* __restrict out) {
  for (int i0 = 0; i0 < n; i0 += kRowBlock) {
    const int i1 = std::min(n, i0 + kRowBlock);
    const T* first = rows[0];
    const float w0 = w[0];
    for (int i = i0; i < i1; ++i) out[i] = w0 * static_cast<float>(first[i]);
    for (int k = 1; k < taps; ++k) {
      const T* row = rows[k];
      const float wk = w[k];
      for (int i = i0; i < i1; ++i) out[i] += wk * static_cast<float>(row[i]);
    }
  }
}

// v rounded half to even and clamped to T's range. Integers: rounded first, then clamped
// as int, which runs as vector integer min and max (the sums are far inside int's range);
// clamping the float first compiled into compares and blends.
template <class T>
GPUFILTER_INLINE T stored(float v) {
  if constexpr (std::is_floating_point_v<T>) {
    return v;
  } else {
    constexpr int top = std::numeric_limits<T>::max();
    return static_cast<T>(std::min(std::max(static_cast<int>(std::nearbyint(v)), 0), top));
  }
}

// Tap k's weight for every value of an output row, channels spread out: the weight of
// value x * CN + c at [k * width * CN + x * CN + c], so that the horizontal pass runs
// over contiguous values.
std::vector<float> weights_per_value(const AxisPlan& plan, int width, int channels) {
  const std::size_t values = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
  std::vector<float> spread(static_cast<std::size_t>(plan.taps) * values);
  for (int k = 0; k < plan.taps; ++k)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < channels; ++c)
        spread[static_cast<std::size_t>(k) * values + static_cast<std::size_t>(x) * static_cast<std::size_t>(channels) +
               static_cast<std::size_t>(c)] =
            plan.weight[static_cast<std::size_t>(x) * static_cast<std::size_t>(plan.taps) + static_cast<std::size_t>(k)];
  return spread;
}

// Output pixels per block of the horizontal pass: a block's gathered taps stay in the L1
// cache between the gather and the sum.
constexpr int kColumnBlock = 256;

// gathered[k * block + x * CN + c] = row[index[x * K + k] + c], x < width: each tap's
// source pixel for each output pixel, moved whole. Three channels move as four values,
// the fourth overwritten by the next pixel's (`row` and each tap's block hold a value
// past their values). S: a summed row's float, or a source row's own type.
template <int K, int CN, class S>
void gather_taps(const S* row, const int* index, int width, S* __restrict gathered, int block) {
  constexpr std::size_t moved = (CN == 3 ? 4 : CN) * sizeof(S);
  for (int x = 0; x < width; ++x)
    for (int k = 0; k < K; ++k)
      std::memcpy(gathered + k * block + x * CN, row + index[x * K + k], moved);
}

// out[j] = sum_k weight[k * stride + j] * taps_values[k * block + j], j < n, summed
// from zero in tap order (as each output value sums its gathered columns) and rounded as T
// stores it. K: the taps, fixed at compile time.
template <int K, class S, class T>
GPUFILTER_VECTOR_CLONES void sum_gathered(const S* taps_values, int block, const float* weight,
                                          std::ptrdiff_t stride, int n, T* __restrict out) {
  for (int j = 0; j < n; ++j) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k) sum += weight[k * stride + j] * static_cast<float>(taps_values[k * block + j]);
    out[j] = stored<T>(sum);
  }
}

// out[x * CN + c] = sum_k weight[x * taps + k] * row[index[x * taps + k] + c], rounded as
// T stores it, for a number of taps known at run time (area at some factors). Each
// pixel's sums stay in registers from tap to tap, which decides how the compiler fuses
// their multiplies and adds: this loop keeps the form the results were set with.
template <int CN, class T>
GPUFILTER_VECTOR_CLONES void weighted_columns(const float* row, const int* index, const float* weight, int taps,
                                              int width, T* __restrict out) {
  for (int x = 0; x < width; ++x) {
    const int* ix = index + static_cast<std::ptrdiff_t>(x) * taps;
    const float* w = weight + static_cast<std::ptrdiff_t>(x) * taps;
    float sums[CN] = {};
    for (int k = 0; k < taps; ++k) {
      const float* p = row + ix[k];
      const float wk = w[k];
      for (int c = 0; c < CN; ++c) sums[c] += wk * p[c];
    }
    for (int c = 0; c < CN; ++c) out[static_cast<std::ptrdiff_t>(x) * CN + c] = stored<T>(sums[c]);
  }
}

// The columns of one axis, ready for the horizontal pass.
struct ColumnPlan {
  AxisPlan axis;               // source columns premultiplied by the channels
  std::vector<float> weights;  // weights_per_value, where the taps are fixed (gathers)
};

// The taps the gathered horizontal pass is built for; other counts (area at some
// factors) sum in weighted_columns.
bool gathers(int taps) { return taps == 1 || taps == 2 || taps == 4 || taps == 8; }

// One output row from `row` (its summed source row, or its one source row): block by
// block, each tap's pixels gathered into `gathered` (taps * (kColumnBlock * CN + 1)
// values), then summed.
template <int K, int CN, class S, class T>
void gathered_row(const S* row, const ColumnPlan& columns, int width, S* gathered, T* out) {
  const int block = kColumnBlock * CN + 1;
  const std::ptrdiff_t stride = static_cast<std::ptrdiff_t>(width) * CN;
  for (int x0 = 0; x0 < width; x0 += kColumnBlock) {
    const int pixels = std::min(kColumnBlock, width - x0);
    gather_taps<K, CN>(row, columns.axis.index.data() + static_cast<std::ptrdiff_t>(x0) * K, pixels, gathered, block);
    sum_gathered<K>(gathered, block, columns.weights.data() + static_cast<std::ptrdiff_t>(x0) * CN, stride,
                    pixels * CN, out + static_cast<std::ptrdiff_t>(x0) * CN);
  }
}

template <int CN, class T>
void columns_row(const float* row, const ColumnPlan& columns, int width, float* gathered, T* out) {
  switch (columns.axis.taps) {
    case 1: gathered_row<1, CN>(row, columns, width, gathered, out); return;
    case 2: gathered_row<2, CN>(row, columns, width, gathered, out); return;
    case 4: gathered_row<4, CN>(row, columns, width, gathered, out); return;
    case 8: gathered_row<8, CN>(row, columns, width, gathered, out); return;
    default:
      weighted_columns<CN>(row, columns.axis.index.data(), columns.axis.weight.data(), columns.axis.taps, width, out);
      return;
  }
}

// One row through the horizontal pass, for the image's channel count.
template <class T>
void columns_row_of(int channels, const float* row, const ColumnPlan& columns, int width, float* gathered, T* out) {
  switch (channels) {
    case 1: columns_row<1>(row, columns, width, gathered, out); return;
    case 3: columns_row<3>(row, columns, width, gathered, out); return;
    default: columns_row<4>(row, columns, width, gathered, out); return;
  }
}

// What every band of output rows shares: the planned taps of both axes.
struct ResamplePlan {
  int channels;
  int width;  // of the output
  ColumnPlan columns;
  AxisPlan rows;
};

ResamplePlan plan_resample(const cv::Mat& src, const cv::Mat& dst, ResizeFilter filter) {
  const int channels = src.channels();
  ResamplePlan plan{channels, dst.cols, {plan_axis(src.cols, dst.cols, filter, channels), {}},
                    plan_axis(src.rows, dst.rows, filter, 1)};
  if (gathers(plan.columns.axis.taps)) plan.columns.weights = weights_per_value(plan.columns.axis, dst.cols, channels);
  return plan;
}

// Per thread: the buffer that gathers a block's taps for the horizontal pass.
template <class S>
std::vector<S> gather_buffer(const ColumnPlan& columns, int channels) {
  if (!gathers(columns.axis.taps)) return {};
  return std::vector<S>(static_cast<std::size_t>(columns.axis.taps) * static_cast<std::size_t>(kColumnBlock * channels + 1));
}

// Each output row sums its source rows into one float row, then runs the horizontal pass
// on that sum.
template <class T>
void sum_rows_first(const cv::Mat& src, cv::Mat& dst, const ResamplePlan& plan) {
  const AxisPlan& rows = plan.rows;
  const int row_values = src.cols * plan.channels;
  // Bands of about 16 output rows: enough tasks to share the cores evenly.
  const double stripes = std::max(1.0, dst.rows / 16.0);
  cv::parallel_for_(
      cv::Range(0, dst.rows),
      [&](const cv::Range& range) {
        // One float past the values: gather_taps moves three channels as four.
        std::vector<float> sums(static_cast<std::size_t>(row_values) + 1);
        std::vector<float> gathered = gather_buffer<float>(plan.columns, plan.channels);
        std::vector<const T*> taps_rows(static_cast<std::size_t>(rows.taps));
        std::vector<float> taps_weights(static_cast<std::size_t>(rows.taps));
        for (int y = range.start; y < range.end; ++y) {
          // The row's taps with a weight (they sum to 1, so one has): the zeros of padding
          // and of exact positions add nothing.
          int used = 0;
          for (int k = 0; k < rows.taps; ++k) {
            const std::size_t at = static_cast<std::size_t>(y) * static_cast<std::size_t>(rows.taps) + static_cast<std::size_t>(k);
            if (rows.weight[at] == 0.0f) continue;
            taps_rows[static_cast<std::size_t>(used)] = src.ptr<T>(rows.index[at]);
            taps_weights[static_cast<std::size_t>(used)] = rows.weight[at];
            ++used;
          }
          weighted_source_rows<T>(taps_rows.data(), taps_weights.data(), used, row_values, sums.data());
          columns_row_of(plan.channels, sums.data(), plan.columns, plan.width, gathered.data(), dst.ptr<T>(y));
        }
      },
      stripes);
}

// out[i] = w0 * a[i] + w1 * b[i], rounded half to even, for integer T. Linear weights
// are not negative and sum to 1, so both passes keep the values within T's range but for
// float's rounding error, far below the half level that would round outside it: no clamp.
template <class T>
GPUFILTER_VECTOR_CLONES void blend_rows(const float* a, const float* b, float w0, float w1, int n,
                                        T* __restrict out) {
  for (int i = 0; i < n; ++i) out[i] = static_cast<T>(static_cast<int>(std::nearbyint(w0 * a[i] + w1 * b[i])));
}

// The two most recent source rows through the horizontal pass, in float, by source row.
template <int CN, class T>
class ResampledRows {
 public:
  ResampledRows(const cv::Mat& src, const ResamplePlan& plan)
      : src_(src), plan_(plan), padded_(CN == 3 ? static_cast<std::size_t>(src.cols) * CN + 1 : 0),
        gathered_(gather_buffer<T>(plan.columns, CN)) {
    for (Slot& slot : slots_) slot.values.resize(static_cast<std::size_t>(plan.width) * CN);
  }

  // Source row `index` resampled; made in the slot that does not hold `keep` (the other
  // row the caller needs) if neither holds it.
  const float* row(int index, int keep) {
    for (Slot& slot : slots_)
      if (slot.index == index) return slot.values.data();
    Slot& slot = slots_[0].index == keep ? slots_[1] : slots_[0];
    const T* source = src_.ptr<T>(index);
    if constexpr (CN == 3) {
      // gather_taps moves three channels as four: the row, with a value past its own.
      std::memcpy(padded_.data(), source, static_cast<std::size_t>(src_.cols) * CN * sizeof(T));
      source = padded_.data();
    }
    gathered_row<2, CN>(source, plan_.columns, plan_.width, gathered_.data(), slot.values.data());
    slot.index = index;
    return slot.values.data();
  }

 private:
  struct Slot {
    int index = -1;
    std::vector<float> values;
  };

  const cv::Mat& src_;
  const ResamplePlan& plan_;
  std::vector<T> padded_;
  std::vector<T> gathered_;
  Slot slots_[2];
};

// Linear taps (two per output row and column) over more output rows than source rows:
// each source row runs the horizontal pass once per band, straight from its stored
// values, and the output rows blend the two they need, so the horizontal pass runs once
// per source row rather than once per output row.
template <int CN, class T>
void columns_first(const cv::Mat& src, cv::Mat& dst, const ResamplePlan& plan) {
  const AxisPlan& rows = plan.rows;
  // Bands of about 64 output rows: each band resamples one or two source rows that the
  // band before it had too.
  const double stripes = std::max(1.0, dst.rows / 64.0);
  cv::parallel_for_(
      cv::Range(0, dst.rows),
      [&](const cv::Range& range) {
        ResampledRows<CN, T> resampled(src, plan);
        for (int y = range.start; y < range.end; ++y) {
          const std::size_t at = 2 * static_cast<std::size_t>(y);
          const float w0 = rows.weight[at], w1 = rows.weight[at + 1];
          // A tap with no weight reads the other's row: its row adds nothing.
          const int i0 = w0 == 0.0f ? rows.index[at + 1] : rows.index[at];
          const int i1 = w1 == 0.0f ? i0 : rows.index[at + 1];
          const float* a = resampled.row(i0, i1);
          const float* b = resampled.row(i1, i0);
          blend_rows<T>(a, b, w0, w1, plan.width * CN, dst.ptr<T>(y));
        }
      },
      stripes);
}

template <class T>
void resample_as(const cv::Mat& src, cv::Mat& dst, ResizeFilter filter) {
  const ResamplePlan plan = plan_resample(src, dst, filter);
  // 8-bit only: 16-bit and float linear go to cv::resize (geometry_cpu.cpp).
  if (std::is_same_v<T, std::uint8_t> && filter == ResizeFilter::Linear && dst.rows > src.rows)
    switch (plan.channels) {
      case 1: columns_first<1, T>(src, dst, plan); break;
      case 3: columns_first<3, T>(src, dst, plan); break;
      default: columns_first<4, T>(src, dst, plan); break;
    }
  else
    sum_rows_first<T>(src, dst, plan);
}

// Nearest moves pixels: each output row copies, pixel by pixel, from the one source row
// its taps name. Bytes: the pixel's size.
template <std::size_t Bytes>
void pick_pixels(const cv::Mat& src, cv::Mat& dst) {
  const AxisPlan columns = plan_axis(src.cols, dst.cols, ResizeFilter::Nearest, static_cast<int>(Bytes));
  const AxisPlan rows = plan_axis(src.rows, dst.rows, ResizeFilter::Nearest, 1);
  cv::parallel_for_(
      cv::Range(0, dst.rows),
      [&](const cv::Range& range) {
        for (int y = range.start; y < range.end; ++y) {
          const unsigned char* in = src.ptr<unsigned char>(rows.index[static_cast<std::size_t>(y)]);
          unsigned char* out = dst.ptr<unsigned char>(y);
          for (int x = 0; x < dst.cols; ++x)
            std::memcpy(out + static_cast<std::size_t>(x) * Bytes, in + columns.index[static_cast<std::size_t>(x)], Bytes);
        }
      },
      std::max(1.0, dst.rows / 16.0));
}

void pick_nearest(const cv::Mat& src, cv::Mat& dst) {
  switch (src.elemSize()) {
    case 1: pick_pixels<1>(src, dst); return;
    case 2: pick_pixels<2>(src, dst); return;
    case 3: pick_pixels<3>(src, dst); return;
    case 4: pick_pixels<4>(src, dst); return;
    case 6: pick_pixels<6>(src, dst); return;
    case 8: pick_pixels<8>(src, dst); return;
    case 12: pick_pixels<12>(src, dst); return;
    default: pick_pixels<16>(src, dst); return;
  }
}

// Halving both ways, where linear and area both give the mean of each 2x2 block (weights
// exactly 1/4): integer sums, rounded half to even as the reference rounds the same exact
// mean. Sums of four 8-bit values fit 16 bits (twice the values a vector holds), of 16-bit 32.
template <class T>
using BlockSum = std::conditional_t<sizeof(T) == 1, std::uint16_t, std::uint32_t>;

// Two steps over whole rows, so the first runs as a vector loop whatever the channels:
// the rounded 2x2 block sum at every position of the two source rows (also at odd
// pixels, which the second step drops), then every other pixel of those taken out.
// Taking out three channels of six in the sums' own loop kept that loop scalar
// (docs/cpu-path.md, "Resize, histogram and median beside OpenCV").
template <int CN, class T>
GPUFILTER_VECTOR_CLONES void halve_row(const T* top, const T* bottom, int out_width, T* __restrict blocks,
                                       T* __restrict out) {
  using S = BlockSum<T>;
  const int values = 2 * out_width * CN;
  for (int i = 0; i < values - CN; ++i) {
    const S sum = static_cast<S>(static_cast<S>(top[i]) + bottom[i] + top[i + CN] + bottom[i + CN]);
    blocks[i] = static_cast<T>((sum + 1 + ((sum >> 2) & 1)) >> 2);
  }
  if constexpr (CN == 3) {
    // Four values a move, the fourth overwritten by the next pixel's: all but the last.
    for (int x = 0; x + 1 < out_width; ++x) std::memcpy(out + 3 * x, blocks + 6 * x, 4 * sizeof(T));
    std::memcpy(out + 3 * (out_width - 1), blocks + 6 * (out_width - 1), 3 * sizeof(T));
  } else {
    for (int x = 0; x < out_width; ++x) std::memcpy(out + CN * x, blocks + 2 * CN * x, CN * sizeof(T));
  }
}

template <class T>
void halve(const cv::Mat& src, cv::Mat& dst) {
  cv::parallel_for_(
      cv::Range(0, dst.rows),
      [&](const cv::Range& range) {
        std::vector<T> blocks(static_cast<std::size_t>(src.cols) * static_cast<std::size_t>(src.channels()));
        for (int y = range.start; y < range.end; ++y) {
          const T* top = src.ptr<T>(2 * y);
          const T* bottom = src.ptr<T>(2 * y + 1);
          switch (src.channels()) {
            case 1: halve_row<1>(top, bottom, dst.cols, blocks.data(), dst.ptr<T>(y)); break;
            case 3: halve_row<3>(top, bottom, dst.cols, blocks.data(), dst.ptr<T>(y)); break;
            default: halve_row<4>(top, bottom, dst.cols, blocks.data(), dst.ptr<T>(y)); break;
          }
        }
      },
      std::max(1.0, dst.rows / 16.0));
}

}  // namespace

void resample(const cv::Mat& src, cv::Mat& dst, ResizeFilter filter) {
  if (filter == ResizeFilter::Nearest) {
    pick_nearest(src, dst);
    return;
  }
  const bool halves = src.cols == 2 * dst.cols && src.rows == 2 * dst.rows;
  if (halves && (filter == ResizeFilter::Linear || filter == ResizeFilter::Area) && src.depth() != CV_32F) {
    if (src.depth() == CV_8U)
      halve<std::uint8_t>(src, dst);
    else
      halve<std::uint16_t>(src, dst);
    return;
  }
  switch (src.depth()) {
    case CV_8U: resample_as<std::uint8_t>(src, dst, filter); return;
    case CV_16U: resample_as<std::uint16_t>(src, dst, filter); return;
    default: resample_as<float>(src, dst, filter); return;
  }
}

}  // namespace gpufilter::cpu
