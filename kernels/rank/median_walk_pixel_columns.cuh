#pragma once
// The median walk's pixel columns (rank/median_walk.cuh): a pixel a lane, any format, its
// values as MedianLanes splits them; the neighbours' values come by shuffles.
#include <cstddef>

#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "rank/median_lanes.cuh"
#include "rank/median_walk.cuh"
#include "rank/median_walk_border.cuh"

namespace gpufilter::kernels::median_walk {

template <class T, int C, bool kConstant>
struct PixelColumns {
  using Lanes = MedianLanes<T, C>;
  using Stored = typename Lanes::Stored;
  static constexpr int kGroupElements = 1;  // a pixel a lane
  static constexpr int kPixelElements = 1;
  static constexpr bool kInsideStrips = false;
  static constexpr bool kWholeWarps = false;
  static constexpr int kRowsAhead = Tuning::rows_ahead(static_cast<int>(sizeof(Pixel<T, C>)));

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

  template <bool kRowInside, bool kWhole = false>
  __device__ Read read(const LaneState& at, int y, long long offset) const {
    const RowAt row = row_at<kRowInside>(y, offset, src.height, static_cast<long long>(src.pitch), border.y);
    Read p;
    p.own = Lanes::load(reinterpret_cast<const Pixel<T, C>*>(at.own + row.offset));
    if (at.reads_edge) p.edge = Lanes::load(reinterpret_cast<const Pixel<T, C>*>(at.edge + row.offset));
    if constexpr (kConstant) {
      if (!row.inside || at.own_outside) p.own = Lanes::stored(constant);
      if (!row.inside || at.edge_outside) p.edge = Lanes::stored(constant);
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

  template <bool kWhole = false>
  __device__ void store(const LaneState& at, long long offset,
                        const typename Lanes::Value (&values)[Lanes::kValues]) const {
    if (at.writes) Lanes::store(reinterpret_cast<Pixel<T, C>*>(at.out + offset), values);
  }
};

}  // namespace gpufilter::kernels::median_walk
