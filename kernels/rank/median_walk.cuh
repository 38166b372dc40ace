#pragma once
// The 3x3 median as a walk down columns, with no shared memory (rank/median_walk.cu has
// the kinds of columns it walks). Each lane owns a column group of the image (one pixel,
// a word of channel values or a pair of RGBA8 pixels) and walks a strip of rows down it,
// so a warp reads a row's neighbouring groups in one coalesced access and writes them in
// one. A lane's left and right neighbours come from the lanes beside it by shuffles;
// lanes 0 and 31 load the one pixel outside the warp themselves. Each window row is
// sorted once, as it arrives, for the three outputs that hold it; each pair of
// neighbouring rows' largest minimum, smallest maximum and ordered middles are taken once,
// for the two outputs that hold both (Paeth's method, as median3x3_column in
// rank/median_select.hpp, but rolling down the strip instead of over a tile in shared
// memory): about 18 min/max operations a value an output. Rows are read a few ahead of
// the one being ordered, so each lane keeps loads in flight while it works.
//
// A column kind (Columns) gives the driver (and the launcher, kGroupElements and
// kPixelElements: a lane's group and a pixel, in the elements the kind splits rows into):
//   Lanes          the values a group's row splits into (Value, Ops, kValues)
//   Read           a row of the group as loaded, kRowsAhead of them in flight
//   LaneState      what a lane works out once: its addresses and where it meets the border
//   lane(group, lane), read<kRowInside, kWhole>(state, y, offset) (kRowInside: row y is
//   known to lie inside the image, so the read skips the row's border test; kWhole: so is
//   every lane's group), sort(read, lane) -> SortedRow<Lanes>, and store<kWhole>(state,
//   offset, values).
//   kInsideStrips  whether strips wholly inside the image take a loop of their own, with
//                  no row tests and every row closing an output (the strip's first two
//                  rows are read before it); it holds more registers, so a kind takes it
//                  where it measured faster (docs/gpu-results.md, "Median"); such kinds'
//                  LaneState says whether the lane's group is `whole`.
//   kWholeWarps    whether inside strips of warps whose every group is whole skip the
//                  per-read and per-store test (walk_inside_strip<true>): where measured faster.
#include <cuda_runtime.h>

#include "rank/median_select.hpp"

namespace gpufilter::kernels::median_walk {

struct Tuning {
  static constexpr int kWarps = 4;       // warps a block, side by side
  static constexpr int kStripRows = 32;  // output rows a lane walks (2 more are read)
  // Rows read ahead of the one being ordered: about 16 bytes a lane in flight, at least
  // 2 rows, at most 4 (more holds more registers than it hides latency).
  static constexpr int rows_ahead(int read_bytes) {
    const int rows = 16 / read_bytes;
    return rows < 2 ? 2 : (rows > 4 ? 4 : rows);
  }
};

constexpr unsigned kFullWarp = 0xffffffffu;

// One window row at a lane's group (left, own, right), sorted per value.
template <class Lanes>
struct SortedRow {
  using Value = typename Lanes::Value;
  Value low[Lanes::kValues], middle[Lanes::kValues], high[Lanes::kValues];
};

// Sorts each value's (left, centre, right).
template <class Lanes>
__device__ __forceinline__ void sort_into(SortedRow<Lanes>& row, int v, typename Lanes::Value a,
                                          typename Lanes::Value b, typename Lanes::Value c) {
  using Ops = typename Lanes::Ops;
  order<Ops>(a, b);
  order<Ops>(b, c);
  order<Ops>(a, b);
  row.low[v] = a;
  row.middle[v] = b;
  row.high[v] = c;
}

// What two neighbouring sorted rows give both outputs whose windows hold them.
template <class Lanes>
struct RowPair {
  using Value = typename Lanes::Value;
  Value largest_low[Lanes::kValues], smallest_high[Lanes::kValues];
  Value lesser_middle[Lanes::kValues], greater_middle[Lanes::kValues];
};

template <class Lanes>
__device__ __forceinline__ RowPair<Lanes> pair_of(const SortedRow<Lanes>& upper, const SortedRow<Lanes>& lower) {
  using Ops = typename Lanes::Ops;
  RowPair<Lanes> pair;
#pragma unroll
  for (int v = 0; v < Lanes::kValues; ++v) {
    pair.largest_low[v] = Ops::hi(upper.low[v], lower.low[v]);
    pair.smallest_high[v] = Ops::lo(upper.high[v], lower.high[v]);
    pair.lesser_middle[v] = Ops::lo(upper.middle[v], lower.middle[v]);
    pair.greater_middle[v] = Ops::hi(upper.middle[v], lower.middle[v]);
  }
  return pair;
}

// The output whose window row `row` closes (with the pair of rows above it), stored.
template <bool kWhole, class Columns>
__device__ __forceinline__ void store_output(const Columns& columns, const typename Columns::LaneState& state,
                                             long long out_offset, const RowPair<typename Columns::Lanes>& pair,
                                             const SortedRow<typename Columns::Lanes>& row) {
  using Lanes = typename Columns::Lanes;
  using Ops = typename Lanes::Ops;
  typename Lanes::Value values[Lanes::kValues];
#pragma unroll
  for (int v = 0; v < Lanes::kValues; ++v) {
    const auto largest_low = Ops::hi(pair.largest_low[v], row.low[v]);
    const auto smallest_high = Ops::lo(pair.smallest_high[v], row.high[v]);
    const auto middle = Ops::hi(pair.lesser_middle[v], Ops::lo(pair.greater_middle[v], row.middle[v]));
    values[v] = median3<Ops>(largest_low, middle, smallest_high);
  }
  columns.template store<kWhole>(state, out_offset, values);
}

// A strip whose rows y0 - 1 to y0 + kStripRows all lie inside the image. Input row r is
// image row y0 - 1 + r, read kAhead rows before it is sorted into ring slot r % kAhead;
// rows 0 and 1 go first, then each step of the loop takes kAhead rows, each closing an
// output. The slots are constants after unrolling, so the ring stays in registers.
// kWhole: every lane's group lies wholly inside the image (all warps but the last of a
// row), so reads and stores skip the test.
template <bool kWhole, class Columns>
__device__ __forceinline__ void walk_inside_strip(const Columns& columns, const typename Columns::LaneState& state,
                                                  int lane, int y0, long long src_pitch, long long dst_pitch) {
  using Lanes = typename Columns::Lanes;
  constexpr int kAhead = Columns::kRowsAhead;
  static_assert(Tuning::kStripRows % kAhead == 0, "a loop step takes kAhead rows");
  typename Columns::Read ahead[kAhead];
  long long offset = (y0 - 1) * src_pitch;  // of the next row to read
#pragma unroll
  for (int k = 0; k < kAhead; ++k, offset += src_pitch)
    ahead[k] = columns.template read<true, kWhole>(state, y0 - 1 + k, offset);
  SortedRow<Lanes> previous = columns.sort(ahead[0], lane);
  ahead[0] = columns.template read<true, kWhole>(state, y0 - 1 + kAhead, offset);
  offset += src_pitch;
  const SortedRow<Lanes> second = columns.sort(ahead[1], lane);
  ahead[1] = columns.template read<true, kWhole>(state, y0 + kAhead, offset);
  offset += src_pitch;
  RowPair<Lanes> pair = pair_of<Lanes>(previous, second);
  previous = second;
  long long out_offset = y0 * dst_pitch;
#pragma unroll 1
  for (int out = 0; out < Tuning::kStripRows; out += kAhead) {
    const bool reads_on = out + kAhead < Tuning::kStripRows;  // the last step's rows are all read
#pragma unroll
    for (int k = 0; k < kAhead; ++k) {
      constexpr int kFirst = 2;
      const int slot = (kFirst + k) % kAhead;
      const SortedRow<Lanes> row = columns.sort(ahead[slot], lane);
      if (reads_on) ahead[slot] = columns.template read<true, kWhole>(state, 0, offset);
      offset += src_pitch;
      store_output<kWhole>(columns, state, out_offset, pair, row);
      out_offset += dst_pitch;
      pair = pair_of<Lanes>(previous, row);
      previous = row;
    }
  }
}

// Any strip: rows may lie outside the image (read through the border), and the strip may
// be cut short by the image's last row.
template <class Columns>
__device__ __forceinline__ void walk_any_strip(const Columns& columns, const typename Columns::LaneState& state,
                                               int lane, int y0, int height, long long src_pitch,
                                               long long dst_pitch) {
  using Lanes = typename Columns::Lanes;
  constexpr int kAhead = Columns::kRowsAhead;
  constexpr int kRowsRead = Tuning::kStripRows + 2;
  typename Columns::Read ahead[kAhead];
  long long offset = (y0 - 1) * src_pitch;  // of the next row to read, were it inside
#pragma unroll
  for (int k = 0; k < kAhead; ++k, offset += src_pitch)
    ahead[k] = columns.template read<false>(state, y0 - 1 + k, offset);
  long long out_offset = y0 * dst_pitch;
  const int rows = min(kRowsRead, height - y0 + 2);  // uniform over the block
  SortedRow<Lanes> previous;
  RowPair<Lanes> pair;
#pragma unroll 1
  for (int base = 0; base < rows; base += kAhead) {
#pragma unroll
    for (int k = 0; k < kAhead; ++k) {
      const int r = base + k;
      if (r >= rows) break;
      const SortedRow<Lanes> row = columns.sort(ahead[k], lane);
      if (r + kAhead < rows) ahead[k] = columns.template read<false>(state, y0 - 1 + r + kAhead, offset);
      offset += src_pitch;
      if (r >= 2) {  // row r closes the window of output row y0 + r - 2
        store_output<false>(columns, state, out_offset, pair, row);
        out_offset += dst_pitch;
      }
      if (r >= 1) pair = pair_of<Lanes>(previous, row);
      previous = row;
    }
  }
}

template <class Columns>
__global__ void __launch_bounds__(Tuning::kWarps * 32)
    median_walk_3x3_kernel(Columns columns, int groups, int height, long long src_pitch, long long dst_pitch,
                           int strips) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int group = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (group - lane >= groups) return;  // the whole warp is right of the image
  const typename Columns::LaneState state = columns.lane(group, lane);
  bool whole_warp = false;  // uniform over the warp
  if constexpr (Columns::kWholeWarps) whole_warp = __all_sync(kFullWarp, state.whole);
  // gridDim.y is at most 65535: a block takes every gridDim.y-th strip.
  for (int strip = static_cast<int>(blockIdx.y); strip < strips; strip += static_cast<int>(gridDim.y)) {
    const int y0 = strip * Tuning::kStripRows;  // the strip's first output row; it reads from y0 - 1
    if constexpr (Columns::kInsideStrips) {
      if (y0 >= 1 && y0 + Tuning::kStripRows < height) {
        if (whole_warp)
          walk_inside_strip<true>(columns, state, lane, y0, src_pitch, dst_pitch);
        else
          walk_inside_strip<false>(columns, state, lane, y0, src_pitch, dst_pitch);
        continue;
      }
    }
    walk_any_strip(columns, state, lane, y0, height, src_pitch, dst_pitch);
  }
}

}  // namespace gpufilter::kernels::median_walk
