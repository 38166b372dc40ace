// The 3x3 median's walk (rank/median_walk.cuh) over its two kinds of columns:
//  - pixel columns, a pixel a lane, any format: its values as MedianLanes splits them;
//  - gray words, a 32-bit word a lane on 8- and 16-bit gray (4 or 2 pixels), where rows
//    start on whole words: the word's pixels ordered as pairs of 16-bit lanes, so one
//    min/max orders two pixels, and the neighbours' pixels shifted in from the words
//    beside it (funnel shifts), not loaded again.
// The border: each lane works out its columns once; each row is mapped as it is read
// (uniform over the warp); under Constant a read outside takes the constant (an
// instantiation of its own, so the other modes pay nothing for it).
#include <cstddef>
#include <cstdint>

#include "common/border_runtime.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "rank/median_lanes.cuh"
#include "rank/median_launch.hpp"
#include "rank/median_walk.cuh"

namespace gpufilter::kernels {
namespace {

using median_walk::kFullWarp;
using median_walk::SortedRow;
using median_walk::sort_into;

// The coordinate that coordinate i of an axis of n reads: i inside, mapped outside.
__device__ __forceinline__ int read_at(int i, int n, const BorderAxis& axis) {
  return i >= 0 && i < n ? i : border_map(i, n, axis);
}

// Image row y's byte offset: `offset` (the one running from row to row) where y lies
// inside, the mapped row's outside.
__device__ __forceinline__ long long row_offset(int y, long long offset, int height, long long pitch,
                                                const BorderAxis& axis) {
  return y >= 0 && y < height ? offset : static_cast<long long>(border_map(y, height, axis)) * pitch;
}

// ---- pixel columns ---------------------------------------------------------------------

template <class T, int C, bool kConstant>
struct PixelColumns {
  using Lanes = MedianLanes<T, C>;
  using Stored = typename Lanes::Stored;
  static constexpr int kRowsAhead = median_walk::Tuning::rows_ahead(static_cast<int>(sizeof(Pixel<T, C>)));

  // A row at the lane's column and, for lanes 0 and 31, at the column beyond the warp.
  struct Read {
    Stored own, edge;
  };
  struct LaneState {
    const unsigned char *own, *edge;  // the columns' first pixels (rows follow at the pitch)
    unsigned char* out;
    bool own_outside, edge_outside, reads_edge, writes;
  };

  PitchedView<T, C> src, dst;
  BorderReads border;
  Pixel<T, C> constant;

  __device__ int groups() const { return src.width; }

  __device__ LaneState lane(int x, int lane) const {
    const int edge = lane == 0 ? x - 1 : x + 1;  // read by lanes 0 and 31 only
    const int own_mapped = read_at(x, src.width, border.x);
    const int edge_mapped = read_at(edge, src.width, border.x);
    return LaneState{src.data + static_cast<std::size_t>(own_mapped) * sizeof(Pixel<T, C>),
                     src.data + static_cast<std::size_t>(edge_mapped) * sizeof(Pixel<T, C>),
                     dst.data + static_cast<std::size_t>(x) * sizeof(Pixel<T, C>),
                     x >= src.width,
                     edge < 0 || edge >= src.width,
                     lane == 0 || lane == 31,
                     x < dst.width};
  }

  __device__ Read read(const LaneState& at, int y, long long offset) const {
    const bool row_inside = y >= 0 && y < src.height;
    offset = row_offset(y, offset, src.height, static_cast<long long>(src.pitch), border.y);
    Read p;
    p.own = Lanes::load(reinterpret_cast<const Pixel<T, C>*>(at.own + offset));
    if (at.reads_edge) p.edge = Lanes::load(reinterpret_cast<const Pixel<T, C>*>(at.edge + offset));
    if constexpr (kConstant) {
      if (!row_inside || at.own_outside) p.own = Lanes::stored(constant);
      if (!row_inside || at.edge_outside) p.edge = Lanes::stored(constant);
    }
    return p;
  }

  // The neighbours' values by shuffles; the warp's edge lanes take their own edge read.
  __device__ SortedRow<Lanes> sort(const Read& p, int lane) const {
    using Value = typename Lanes::Value;
    SortedRow<Lanes> row;
#pragma unroll
    for (int v = 0; v < Lanes::kValues; ++v) {
      const Value centre = Lanes::value(p.own, v), outside = Lanes::value(p.edge, v);
      const Value from_left = __shfl_up_sync(kFullWarp, centre, 1);
      const Value from_right = __shfl_down_sync(kFullWarp, centre, 1);
      sort_into(row, v, lane == 0 ? outside : from_left, centre, lane == 31 ? outside : from_right);
    }
    return row;
  }

  __device__ void store(const LaneState& at, long long offset,
                        const typename Lanes::Value (&values)[Lanes::kValues]) const {
    if (at.writes) Lanes::store(reinterpret_cast<Pixel<T, C>*>(at.out + offset), values);
  }
};

// ---- gray words ------------------------------------------------------------------------

// A word of 8-bit gray is 4 pixels, ordered as two words of two 16-bit lanes; a word of
// 16-bit gray is 2 pixels, one such word.
template <class T>
struct GrayWordLanes {
  using Value = unsigned;
  using Ops = PairOps;
  static constexpr int kPixels = 4 / static_cast<int>(sizeof(T));
  static constexpr int kValues = kPixels / 2;
};

template <class T, bool kConstant>
struct GrayWordColumns {
  using Lanes = GrayWordLanes<T>;
  static constexpr int kPixels = Lanes::kPixels;
  static constexpr int kBits = 8 * static_cast<int>(sizeof(T));
  static constexpr int kRowsAhead = median_walk::Tuning::rows_ahead(4);

  // A row's pixels of the lane's group as a word and, for lanes 0 and 31, the pixel beyond
  // the warp (in the low bits).
  struct Read {
    unsigned word, edge;
  };
  // Groups that lie wholly inside the image load and store a word; the others (at its
  // right edge and beyond) read each pixel through the border and write those inside.
  struct LaneState {
    const unsigned char* own;  // the group's first pixel (rows follow at the pitch)
    unsigned char* out;
    int index[kPixels];   // where the group's pixels read, mapped, when not whole
    int edge_index;       // the pixel beyond the warp's edge, mapped
    unsigned outside;     // bit j: pixel j of the group lies outside the image; bit kPixels: the edge pixel
    int inside;           // pixels of the group inside the image (0 to kPixels)
    bool whole, reads_edge;
  };

  PitchedView<T, 1> src, dst;
  BorderReads border;
  T constant;

  __device__ int groups() const { return (src.width + kPixels - 1) / kPixels; }

  __device__ LaneState lane(int group, int lane) const {
    const int x0 = group * kPixels;
    LaneState at{};
    at.own = src.data + static_cast<std::size_t>(x0) * sizeof(T);
    at.out = dst.data + static_cast<std::size_t>(x0) * sizeof(T);
#pragma unroll
    for (int j = 0; j < kPixels; ++j) {
      at.index[j] = read_at(x0 + j, src.width, border.x);
      if (x0 + j >= src.width) at.outside |= 1u << j;
    }
    const int edge = lane == 0 ? x0 - 1 : x0 + kPixels;  // read by lanes 0 and 31 only
    at.edge_index = read_at(edge, src.width, border.x);
    if (edge < 0 || edge >= src.width) at.outside |= 1u << kPixels;
    at.inside = min(max(src.width - x0, 0), kPixels);
    at.whole = at.inside == kPixels;
    at.reads_edge = lane == 0 || lane == 31;
    return at;
  }

  __device__ T pixel(const unsigned char* row, int index, bool constant_here) const {
    return kConstant && constant_here ? constant : reinterpret_cast<const T*>(row)[index];
  }

  __device__ Read read(const LaneState& at, int y, long long offset) const {
    const bool row_inside = y >= 0 && y < src.height;
    offset = row_offset(y, offset, src.height, static_cast<long long>(src.pitch), border.y);
    const unsigned char* row = src.data + offset;
    Read p{0u, 0u};
    if (at.whole) {
      p.word = *reinterpret_cast<const unsigned*>(at.own + offset);
    } else {
#pragma unroll
      for (int j = 0; j < kPixels; ++j)
        p.word |= static_cast<unsigned>(pixel(row, at.index[j], (at.outside >> j) & 1u)) << (j * kBits);
    }
    if (at.reads_edge) p.edge = pixel(row, at.edge_index, (at.outside >> kPixels) & 1u);
    if constexpr (kConstant) {
      if (!row_inside) {
        p.word = 0u;
#pragma unroll
        for (int j = 0; j < kPixels; ++j) p.word |= static_cast<unsigned>(constant) << (j * kBits);
        p.edge = constant;
      }
    }
    return p;
  }

  // The words beside the lane's by shuffles (the warp's edge lanes make theirs from their
  // edge pixel); each pixel's left and right neighbours then come in by funnel shifts.
  __device__ SortedRow<Lanes> sort(const Read& p, int lane) const {
    unsigned before = __shfl_up_sync(kFullWarp, p.word, 1);  // its last pixel is the left neighbour
    unsigned after = __shfl_down_sync(kFullWarp, p.word, 1);  // its first pixel is the right neighbour
    if (lane == 0) before = p.edge << (32 - kBits);
    if (lane == 31) after = p.edge;
    const unsigned shifted_right = __funnelshift_l(before, p.word, kBits);  // (left, p0, p1, p2)
    const unsigned shifted_left = __funnelshift_r(p.word, after, kBits);    // (p1, p2, p3, right)
    SortedRow<Lanes> row;
    if constexpr (kPixels == 4) {
      // Pairs of 16-bit lanes: pixels (0, 1) and (2, 3), each beside its left and right pair.
      const unsigned middle_pair = __byte_perm(shifted_right, 0u, 0x4342u);  // (p1, p2)
      sort_into(row, 0, __byte_perm(shifted_right, 0u, 0x4140u), __byte_perm(p.word, 0u, 0x4140u), middle_pair);
      sort_into(row, 1, middle_pair, __byte_perm(p.word, 0u, 0x4342u), __byte_perm(shifted_left, 0u, 0x4342u));
    } else {
      sort_into(row, 0, shifted_right, p.word, shifted_left);  // (left, p0), (p0, p1), (p1, right)
    }
    return row;
  }

  __device__ void store(const LaneState& at, long long offset, const unsigned (&values)[Lanes::kValues]) const {
    unsigned word;
    if constexpr (kPixels == 4) {
      word = __byte_perm(values[0], values[1], 0x6420u);
    } else {
      word = values[0];
    }
    if (at.whole) {
      *reinterpret_cast<unsigned*>(at.out + offset) = word;
    } else {
      for (int j = 0; j < at.inside; ++j)
        reinterpret_cast<T*>(at.out + offset)[j] = static_cast<T>(word >> (j * kBits));
    }
  }
};

template <class Columns>
void launch_walk(const Columns& columns, long long groups, const ImageView& src, const ImageView& dst,
                 const ExecContext& ctx) {
  constexpr int kThreads = median_walk::Tuning::kWarps * 32;
  const int strips = static_cast<int>(blocks_for(src.height, median_walk::Tuning::kStripRows));
  const dim3 grid(grid_x(blocks_for(groups, kThreads), "median_walk_3x3_kernel"), grid_y(strips));
  median_walk::median_walk_3x3_kernel<Columns><<<grid, kThreads, 0, ctx.stream>>>(
      columns, src.height, static_cast<long long>(src.pitch), static_cast<long long>(dst.pitch), strips);
}

}  // namespace

void launch_median_walk_3x3(const ImageView& src, const ImageView& dst, const Border& border,
                            const ExecContext& ctx) {
  const BorderReads reads = border_reads(border.mode, src.width, src.height);
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const Pixel<T, C> constant = constant_pixel<T, C>(border);
    if constexpr (C == 1 && sizeof(T) <= 2) {
      // Gray words where every row of both views starts on a whole word.
      if (word_aligned(src.data, src.pitch) && word_aligned(dst.data, dst.pitch)) {
        constexpr int kPixels = GrayWordLanes<T>::kPixels;
        const long long groups = blocks_for(src.width, kPixels);
        if (reads.constant)
          launch_walk(GrayWordColumns<T, true>{pitched<T, 1>(src), pitched<T, 1>(dst), reads, constant.c[0]}, groups,
                      src, dst, ctx);
        else
          launch_walk(GrayWordColumns<T, false>{pitched<T, 1>(src), pitched<T, 1>(dst), reads, constant.c[0]},
                      groups, src, dst, ctx);
        return;
      }
    }
    if (reads.constant)
      launch_walk(PixelColumns<T, C, true>{pitched<T, C>(src), pitched<T, C>(dst), reads, constant}, src.width, src,
                  dst, ctx);
    else
      launch_walk(PixelColumns<T, C, false>{pitched<T, C>(src), pitched<T, C>(dst), reads, constant}, src.width, src,
                  dst, ctx);
  });
  check_launch("median_walk_3x3_kernel", ctx);
}

}  // namespace gpufilter::kernels
