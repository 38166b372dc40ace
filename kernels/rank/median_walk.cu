// The 3x3 median as a walk down columns, with no shared memory: each lane owns one column
// of the image and walks a strip of rows down it, one pixel a row, so a warp reads 32
// neighbouring pixels a row (one coalesced access) and writes 32. A lane's left and right
// neighbours come from the lanes beside it by shuffles; lanes 0 and 31 load the one
// column outside the warp themselves. Each window row is sorted once, as it arrives, for
// the three outputs that hold it; each pair of neighbouring rows' largest minimum,
// smallest maximum and ordered medians are taken once, for the two outputs that hold
// both (Paeth's method, as median3x3_column in rank/median_select.hpp, but rolling down
// the strip instead of over a tile in shared memory). Rows are loaded a few ahead of the
// one being ordered, so each lane keeps loads in flight while it works.
//
// Against the tiled kernel: no tile to fill and no barriers, every lane busy (the tiled
// kernel's threads idle while the block loads), and about 18 min/max operations a value
// an output, with no shared-memory reads. The border: each lane maps its column once;
// each row is mapped as it is read (uniform over the warp); under Constant a read
// outside takes the constant pixel (an instantiation of its own, so the other modes pay
// nothing for it).
#include <cstddef>
#include <cstdint>

#include "common/border_runtime.cuh"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "rank/median_lanes.cuh"
#include "rank/median_launch.hpp"
#include "rank/median_select.hpp"

namespace gpufilter::kernels {
namespace {

struct MedianWalkTuning {
  static constexpr int kWarps = 4;       // warps a block, side by side: 128 columns
  static constexpr int kStripRows = 32;  // output rows a lane walks (2 more are read)
  // Rows read ahead of the one being ordered: about 16 bytes a lane in flight, at least
  // 2 rows, at most 4 (more holds more registers than it hides latency).
  template <class P>
  static constexpr int rows_ahead() {
    constexpr int rows = static_cast<int>(16 / sizeof(P));
    return rows < 2 ? 2 : (rows > 4 ? 4 : rows);
  }
};
using Tuning = MedianWalkTuning;
constexpr unsigned kFullWarp = 0xffffffffu;

// A row's pixel as the lane reads it: its own column and, for lanes 0 and 31, the column
// beyond the warp's edge, each in the form the networks take its values from.
template <class Lanes>
struct LanePixels {
  typename Lanes::Stored own, edge;
};

// One window row at a lane's column (left, own, right), sorted per value.
template <class Lanes>
struct SortedRow {
  using Value = typename Lanes::Value;
  Value low[Lanes::kValues], middle[Lanes::kValues], high[Lanes::kValues];
};

// What two neighbouring sorted rows give both outputs whose windows hold them.
template <class Lanes>
struct RowPair {
  using Value = typename Lanes::Value;
  Value largest_low[Lanes::kValues], smallest_high[Lanes::kValues];
  Value lesser_middle[Lanes::kValues], greater_middle[Lanes::kValues];
};

// Where a lane reads: its two columns' first pixels (rows follow at the pitch), and
// whether each column lies outside the image (under Constant, its reads take the
// constant pixel).
template <class T, int C>
struct LaneColumns {
  const unsigned char *own, *edge;
  bool own_outside, edge_outside;
};

template <class T, int C>
__device__ __forceinline__ LaneColumns<T, C> lane_columns(const PitchedView<T, C>& src, int x, int lane,
                                                          const BorderAxis& axis) {
  const int edge = lane == 0 ? x - 1 : x + 1;  // read by lanes 0 and 31 only
  const int own_mapped = x < src.width ? x : border_map(x, src.width, axis);
  const int edge_mapped = edge >= 0 && edge < src.width ? edge : border_map(edge, src.width, axis);
  return LaneColumns<T, C>{src.data + static_cast<std::size_t>(own_mapped) * sizeof(Pixel<T, C>),
                           src.data + static_cast<std::size_t>(edge_mapped) * sizeof(Pixel<T, C>), x >= src.width,
                           edge < 0 || edge >= src.width};
}

// Reads image row y, whose offset from the image's first row is `offset` when y lies
// inside (rows outside are mapped here: uniform over the warp, and rare).
template <class Lanes, class T, int C, bool kConstant>
__device__ __forceinline__ LanePixels<Lanes> read_row(const PitchedView<T, C>& src, int y, long long offset,
                                                      const LaneColumns<T, C>& cols, bool reads_edge,
                                                      const BorderReads& border,
                                                      const typename Lanes::Stored& constant) {
  const bool row_inside = y >= 0 && y < src.height;
  if (!row_inside) offset = static_cast<long long>(border_map(y, src.height, border.y)) * src.pitch;
  LanePixels<Lanes> p;
  p.own = Lanes::load(reinterpret_cast<const Pixel<T, C>*>(cols.own + offset));
  if (reads_edge) p.edge = Lanes::load(reinterpret_cast<const Pixel<T, C>*>(cols.edge + offset));
  if constexpr (kConstant) {
    if (!row_inside || cols.own_outside) p.own = constant;
    if (!row_inside || cols.edge_outside) p.edge = constant;
  }
  return p;
}

// The row's three pixels at the lane's column, each value sorted: the neighbours' values
// by shuffles, the warp's edge lanes taking their own edge read instead.
template <class Lanes>
__device__ __forceinline__ SortedRow<Lanes> sort_row(const LanePixels<Lanes>& p, int lane) {
  using Ops = typename Lanes::Ops;
  using Value = typename Lanes::Value;
  SortedRow<Lanes> row;
#pragma unroll
  for (int v = 0; v < Lanes::kValues; ++v) {
    const Value centre = Lanes::value(p.own, v), outside = Lanes::value(p.edge, v);
    const Value from_left = __shfl_up_sync(kFullWarp, centre, 1);
    const Value from_right = __shfl_down_sync(kFullWarp, centre, 1);
    Value a = lane == 0 ? outside : from_left, b = centre, c = lane == 31 ? outside : from_right;
    order<Ops>(a, b);
    order<Ops>(b, c);
    order<Ops>(a, b);
    row.low[v] = a;
    row.middle[v] = b;
    row.high[v] = c;
  }
  return row;
}

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

template <class T, int C, bool kConstant>
__global__ void __launch_bounds__(Tuning::kWarps * 32)
    median_walk_3x3_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, BorderReads border, Pixel<T, C> constant,
                           int strips) {
  using Lanes = MedianLanes<T, C>;
  using Ops = typename Lanes::Ops;
  using Value = typename Lanes::Value;
  constexpr int kAhead = Tuning::rows_ahead<Pixel<T, C>>();
  constexpr int kRowsRead = Tuning::kStripRows + 2;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x - lane >= src.width) return;  // the whole warp is right of the image
  const LaneColumns<T, C> cols = lane_columns(src, x, lane, border.x);
  const bool reads_edge = lane == 0 || lane == 31;
  const typename Lanes::Stored constant_values = Lanes::stored(constant);
  const long long pitch = static_cast<long long>(src.pitch);

  // gridDim.y is at most 65535: a block takes every gridDim.y-th strip.
  for (int strip = static_cast<int>(blockIdx.y); strip < strips; strip += static_cast<int>(gridDim.y)) {
    const int y0 = strip * Tuning::kStripRows;  // the strip's first output row; it reads from y0 - 1
    // Input row r of the strip is image row y0 - 1 + r; rows are read kAhead before they
    // are sorted, into ring slot r % kAhead. The inner loop's slots are constants, so the
    // ring stays in registers.
    LanePixels<Lanes> ahead[kAhead];
    long long offset = (y0 - 1) * pitch;  // of the next row to read, were it inside
#pragma unroll
    for (int k = 0; k < kAhead; ++k, offset += pitch)
      ahead[k] = read_row<Lanes, T, C, kConstant>(src, y0 - 1 + k, offset, cols, reads_edge, border, constant_values);
    unsigned char* out = dst.data + static_cast<std::size_t>(y0) * dst.pitch + static_cast<std::size_t>(x) *
                                                                                  sizeof(Pixel<T, C>);
    const bool writes = x < dst.width;
    const int rows = min(kRowsRead, dst.height - y0 + 2);  // uniform over the block
    SortedRow<Lanes> previous;
    RowPair<Lanes> pair;
#pragma unroll 1
    for (int base = 0; base < rows; base += kAhead) {
#pragma unroll
      for (int k = 0; k < kAhead; ++k) {
        const int r = base + k;
        if (r >= rows) break;
        const SortedRow<Lanes> row = sort_row<Lanes>(ahead[k], lane);
        if (r + kAhead < rows)
          ahead[k] = read_row<Lanes, T, C, kConstant>(src, y0 - 1 + r + kAhead, offset, cols, reads_edge, border,
                                                      constant_values);
        offset += pitch;
        if (r >= 2) {  // row r closes the window of output row y0 + r - 2
          Value values[Lanes::kValues];
#pragma unroll
          for (int v = 0; v < Lanes::kValues; ++v) {
            const Value largest_low = Ops::hi(pair.largest_low[v], row.low[v]);
            const Value smallest_high = Ops::lo(pair.smallest_high[v], row.high[v]);
            const Value middle = Ops::hi(pair.lesser_middle[v], Ops::lo(pair.greater_middle[v], row.middle[v]));
            values[v] = median3<Ops>(largest_low, middle, smallest_high);
          }
          if (writes) Lanes::store(reinterpret_cast<Pixel<T, C>*>(out), values);
          out += dst.pitch;
        }
        if (r >= 1) pair = pair_of<Lanes>(previous, row);
        previous = row;
      }
    }
  }
}

}  // namespace

void launch_median_walk_3x3(const ImageView& src, const ImageView& dst, const Border& border,
                            const ExecContext& ctx) {
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const int strips = static_cast<int>(blocks_for(src.height, Tuning::kStripRows));
    const dim3 block(Tuning::kWarps * 32);
    const dim3 grid(grid_x(blocks_for(src.width, Tuning::kWarps * 32), "median_walk_3x3_kernel"), grid_y(strips));
    const BorderReads reads = border_reads(border.mode, src.width, src.height);
    const Pixel<T, C> constant = constant_pixel<T, C>(border);
    if (reads.constant) {
      median_walk_3x3_kernel<T, C, true>
          <<<grid, block, 0, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), reads, constant, strips);
    } else {
      median_walk_3x3_kernel<T, C, false>
          <<<grid, block, 0, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), reads, constant, strips);
    }
  });
  check_launch("median_walk_3x3_kernel", ctx);
}

}  // namespace gpufilter::kernels
