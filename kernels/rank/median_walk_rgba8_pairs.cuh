#pragma once
// The median walk's RGBA8 pairs (rank/median_walk.cuh): two RGBA8 pixels a lane, where
// rows start on 8-byte words, so a lane loads and stores them as one 8-byte access. Each
// pixel is widened into two words of two 16-bit lanes (MedianLanes<uint8_t, 4>), so one
// min/max orders two channels. The pixels beside the pair come by shuffles of the pixels
// as loaded (a word each), not of their widened halves: two shuffles for two pixels.
#include <cstddef>
#include <cstdint>

#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "rank/median_lanes.cuh"
#include "rank/median_select.hpp"
#include "rank/median_walk.cuh"
#include "rank/median_walk_border.cuh"

namespace gpufilter::kernels::median_walk {

// A pair's values: pixel 0's (R, G) and (B, A), then pixel 1's.
struct Rgba8PairLanes {
  using Value = unsigned;
  using Ops = PairOps;
  static constexpr int kValues = 4;
};

template <bool kConstant>
struct Rgba8PairColumns {
  using Lanes = Rgba8PairLanes;
  using Widened = MedianLanes<std::uint8_t, 4>;
  static constexpr int kPixels = 2;
  static constexpr int kGroupElements = kPixels;  // a pixel an element
  static constexpr int kPixelElements = 1;
  static constexpr bool kInsideStrips = true;
  static constexpr bool kWholeWarps = true;
  static constexpr int kRowsAhead = Tuning::rows_ahead(8);

  // A row's pair as loaded (a word a pixel) and, for lanes 0 and 31, the pixel beyond the
  // warp.
  struct Read {
    unsigned first, second, edge;
  };
  using LaneState = GroupLane<kPixels, 1>;  // a pixel an element

  PitchedView<std::uint8_t, 4> src, dst;
  BorderReads border;
  unsigned constant;  // the constant pixel, as a word

  __device__ LaneState lane(int group, int lane) const {
    return group_lane<kPixels, 1>(group, lane, src.data, dst.data, src.width, 4, border.x);
  }

  __device__ unsigned pixel(const unsigned char* row, int index, bool constant_here) const {
    return group_pixel<kConstant>(row, index, constant_here, constant);
  }

  template <bool kRowInside, bool kWhole = false>
  __device__ Read read(const LaneState& at, int y, long long offset) const {
    const RowAt row_at_y = row_at<kRowInside>(y, offset, src.height, static_cast<long long>(src.pitch), border.y);
    const unsigned char* row = src.data + row_at_y.offset;
    Read p{0u, 0u, 0u};
    if (kWhole || at.whole) {
      const uint2 pair = *reinterpret_cast<const uint2*>(at.own + row_at_y.offset);
      p.first = pair.x;
      p.second = pair.y;
    } else {
      p.first = pixel(row, at.index[0], at.outside & 1u);
      p.second = pixel(row, at.index[1], (at.outside >> 1) & 1u);
    }
    if (at.reads_edge) p.edge = pixel(row, at.edge_index[0], (at.outside >> kPixels) & 1u);
    if constexpr (kConstant) {
      if (!row_at_y.inside) p.first = p.second = p.edge = constant;
    }
    return p;
  }

  // The pixel left of the pair is the left lane's second, the one right of it the right
  // lane's first; the warp's edge lanes take their edge pixel instead.
  __device__ SortedRow<Lanes> sort(const Read& p, int lane) const {
    unsigned left = __shfl_up_sync(kFullWarp, p.second, 1);
    unsigned right = __shfl_down_sync(kFullWarp, p.first, 1);
    if (lane == 0) left = p.edge;
    if (lane == 31) right = p.edge;
    const auto l = Widened::widened(left), a = Widened::widened(p.first), b = Widened::widened(p.second),
               r = Widened::widened(right);
    SortedRow<Lanes> row;
    sort_into(row, 0, l.w[0], a.w[0], b.w[0]);
    sort_into(row, 1, l.w[1], a.w[1], b.w[1]);
    sort_into(row, 2, a.w[0], b.w[0], r.w[0]);
    sort_into(row, 3, a.w[1], b.w[1], r.w[1]);
    return row;
  }

  template <bool kWhole = false>
  __device__ void store(const LaneState& at, long long offset, const unsigned (&values)[Lanes::kValues]) const {
    const unsigned first = Widened::narrowed(values[0], values[1]);
    const unsigned second = Widened::narrowed(values[2], values[3]);
    if (kWhole || at.whole)
      *reinterpret_cast<uint2*>(at.out + offset) = make_uint2(first, second);
    else if (at.inside > 0)
      *reinterpret_cast<unsigned*>(at.out + offset) = first;
  }
};

}  // namespace gpufilter::kernels::median_walk
