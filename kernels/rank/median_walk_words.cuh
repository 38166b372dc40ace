#pragma once
// The median walk's words (rank/median_walk.cuh): a 32-bit word of a row's elements a lane
// (channel values: 4 of 8 bits or 2 of 16), where rows start on whole words; on 8- and
// 16-bit gray (an element a pixel) and 8-bit RGB (3 a pixel, so a word's elements need not
// start a pixel). The word's elements are ordered as pairs of 16-bit lanes, so one min/max
// orders two of them, and each element's left and right neighbours, the same channel of
// the pixels beside, are shifted in from the words beside it (funnel shifts by a pixel),
// not loaded again.
#include <cstddef>
#include <cstdint>

#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "rank/median_lanes.cuh"
#include "rank/median_select.hpp"
#include "rank/median_walk.cuh"
#include "rank/median_walk_border.cuh"

namespace gpufilter::kernels::median_walk {

// A word of 8-bit elements is 4 of them, ordered as two words of two 16-bit lanes; a word
// of 16-bit elements is 2, one such word.
template <class T>
struct WordLanes {
  using Value = unsigned;
  using Ops = PairOps;
  static constexpr int kElements = 4 / static_cast<int>(sizeof(T));
  static constexpr int kValues = kElements / 2;
};

template <class T, int C, bool kConstant>
struct WordColumns {
  using Lanes = WordLanes<T>;
  // A word of bytes as two words of 16-bit lanes and back (as an RGBA8 pixel's).
  using Bytes = MedianLanes<std::uint8_t, 4>;
  static constexpr int kElements = Lanes::kElements;
  static constexpr int kGroupElements = kElements;
  static constexpr int kPixelElements = C;
  static constexpr int kBits = 8 * static_cast<int>(sizeof(T));
  static constexpr int kShift = C * kBits;  // a pixel, in bits
  static_assert(kShift < 32, "the pixel beside an element lies in the word beside its own");
  static constexpr bool kInsideStrips = true;
  // Gray only: on RGB words the untested walk of whole warps measured slower, on 16-bit
  // gray faster (docs/gpu-results.md, "Median").
  static constexpr bool kWholeWarps = C == 1;
  static constexpr int kRowsAhead = Tuning::rows_ahead(4);

  // A row's elements of the lane's group as a word and, for lanes 0 and 31, the pixel
  // beyond the warp (its C elements in the low bits).
  struct Read {
    unsigned word, edge;
  };
  using LaneState = GroupLane<kElements, C>;

  PitchedView<T, C> src, dst;
  BorderReads border;
  Pixel<T, C> constant;

  __device__ LaneState lane(int group, int lane) const {
    return group_lane<kElements, C>(group, lane, src.data, dst.data, src.width, sizeof(T), border.x);
  }

  // Element `index` of a row, or the constant's value for element j of a group whose first
  // element is `first_channel`, where the border gives it.
  __device__ unsigned element(const unsigned char* row, int index, bool constant_here, int first_channel,
                              int j) const {
    return group_pixel<kConstant>(row, index, constant_here, constant.c[(first_channel + j) % C]);
  }

  template <bool kRowInside, bool kWhole = false>
  __device__ Read read(const LaneState& at, int y, long long offset) const {
    const RowAt at_row = row_at<kRowInside>(y, offset, src.height, static_cast<long long>(src.pitch), border.y);
    offset = at_row.offset;
    const unsigned char* row = src.data + offset;
    const bool row_constant = kConstant && !at_row.inside;
    Read p{0u, 0u};
    if ((kWhole || at.whole) && !row_constant) {
      p.word = *reinterpret_cast<const unsigned*>(at.own + offset);
    } else {
#pragma unroll
      for (int j = 0; j < kElements; ++j)
        p.word |= element(row, at.index[j], row_constant || ((at.outside >> j) & 1u), at.first_channel, j)
                  << (j * kBits);
    }
    if (at.reads_edge) {
#pragma unroll
      for (int k = 0; k < C; ++k)
        p.edge |= element(row, at.edge_index[k], row_constant || ((at.outside >> (kElements + k)) & 1u),
                          at.edge_channel, k)
                  << (k * kBits);
    }
    return p;
  }

  // The words beside the lane's by shuffles (the warp's edge lanes make theirs from their
  // edge pixel); each element's left and right neighbours then come in by funnel shifts
  // of a pixel.
  __device__ SortedRow<Lanes> sort(const Read& p, int lane) const {
    unsigned before = __shfl_up_sync(kFullWarp, p.word, 1);  // its last pixel is the left neighbour
    unsigned after = __shfl_down_sync(kFullWarp, p.word, 1);  // its first pixel is the right neighbour
    if (lane == 0) before = p.edge << (32 - kShift);
    if (lane == 31) after = p.edge;
    const unsigned left = __funnelshift_l(before, p.word, kShift);  // each element's left neighbour
    const unsigned right = __funnelshift_r(p.word, after, kShift);  // each element's right neighbour
    SortedRow<Lanes> row;
    if constexpr (kElements == 4) {
      // Pairs of 16-bit lanes: elements (0, 1) and (2, 3), each beside its neighbours'.
      const auto l = Bytes::widened(left), w = Bytes::widened(p.word);
      if constexpr (C == 1) {
        // Gray: the first pair's right neighbours are the second pair's left ones, (p1, p2).
        sort_into(row, 0, l.w[0], w.w[0], l.w[1]);
        sort_into(row, 1, l.w[1], w.w[1], Bytes::widened(right).w[1]);
      } else {
        const auto r = Bytes::widened(right);
        sort_into(row, 0, l.w[0], w.w[0], r.w[0]);
        sort_into(row, 1, l.w[1], w.w[1], r.w[1]);
      }
    } else {
      sort_into(row, 0, left, p.word, right);  // 16-bit: (left, p0), (p0, p1), (p1, right)
    }
    return row;
  }

  template <bool kWhole = false>
  __device__ void store(const LaneState& at, long long offset, const unsigned (&values)[Lanes::kValues]) const {
    unsigned word;
    if constexpr (kElements == 4) {
      word = Bytes::narrowed(values[0], values[1]);
    } else {
      word = values[0];
    }
    if (kWhole || at.whole) {
      *reinterpret_cast<unsigned*>(at.out + offset) = word;
    } else {
      for (int j = 0; j < at.inside; ++j)
        reinterpret_cast<T*>(at.out + offset)[j] = static_cast<T>(word >> (j * kBits));
    }
  }
};

}  // namespace gpufilter::kernels::median_walk
