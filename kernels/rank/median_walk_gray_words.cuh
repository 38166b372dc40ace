#pragma once
// The median walk's gray words (rank/median_walk.cuh): a 32-bit word a lane on 8- and
// 16-bit gray (4 or 2 pixels), where rows start on whole words. The word's pixels are
// ordered as pairs of 16-bit lanes, so one min/max orders two pixels, and the neighbours'
// pixels are shifted in from the words beside it (funnel shifts), not loaded again.
#include <cstddef>

#include "common/launch.cuh"
#include "rank/median_select.hpp"
#include "rank/median_walk.cuh"
#include "rank/median_walk_border.cuh"

namespace gpufilter::kernels::median_walk {

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
  static constexpr bool kInsideStrips = true;
  static constexpr int kRowsAhead = Tuning::rows_ahead(4);

  // A row's pixels of the lane's group as a word and, for lanes 0 and 31, the pixel beyond
  // the warp (in the low bits).
  struct Read {
    unsigned word, edge;
  };
  using LaneState = GroupLane<kPixels>;

  PitchedView<T, 1> src, dst;
  BorderReads border;
  T constant;

  __device__ LaneState lane(int group, int lane) const {
    return group_lane<kPixels>(group, lane, src.data, dst.data, src.width, sizeof(T), border.x);
  }

  __device__ T pixel(const unsigned char* row, int index, bool constant_here) const {
    return group_pixel<kConstant>(row, index, constant_here, constant);
  }

  template <bool kRowInside>
  __device__ Read read(const LaneState& at, int y, long long offset) const {
    const RowAt at_row = row_at<kRowInside>(y, offset, src.height, static_cast<long long>(src.pitch), border.y);
    offset = at_row.offset;
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
      if (!at_row.inside) {
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

}  // namespace gpufilter::kernels::median_walk
