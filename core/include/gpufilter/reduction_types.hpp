#pragma once
/// @file
/// The reductions' parameter types and kernel choices (statistics.hpp has the ops).
/// Plain types: the kernels see these, never the ops' declarations.
namespace gpufilter {

/// The library's kernels of the reduction family (docs/techniques/reduction.md); the
/// seed's other tree steps and the superseded packed shapes are the lab's (docs/lab.md).
/// u16 and f32 images run packed's sample-by-sample path under every packed variant.
enum class ReductionVariant {
  Interleaved,  ///< the seed's shared-memory tree, tid % (2*s) == 0 does the work: divergent warps
  Packed,       ///< a grid-stride walk over whole images or warp rows, u8 in packed SIMD words
  PackedWarpPrefetch,  ///< packed, u8 minima/maxima tested against the warp's bounds, the next
                       ///< step's loads issued before this step's arithmetic
  PackedWarpBulk,      ///< packed_warp_prefetch with whole images copied ahead a block stage at
                       ///< a time (sm_90 bulk copies, per-lane copies on older GPUs;
                       ///< the prefetch shape where the ring does not fit in shared memory)
  Auto,  ///< the fastest measured for the format and GPU: packed_warp_bulk for u8 three-channel
         ///< images on sm_90 and later, else packed_warp_prefetch (packed for u16 and f32; the default)
};

/// The columns of the stats table, one row per channel, in this order (ChannelStats
/// says what each holds).
enum class StatsColumn { Min, Max, Sum, Mean, StdDev, MinX, MinY, MaxX, MaxY };
/// The number of StatsColumn values: doubles per channel in image_stats's result.
constexpr int kStatsColumns = 9;

/// The histogram kernels. Where the private copies do not fit in shared memory,
/// lane_private falls back to fewer copies, then to shared_private, and shared_private
/// to global_atomic.
enum class HistogramVariant {
  GlobalAtomic,   ///< one 64-bit atomic in global memory per channel sample
  SharedPrivate,  ///< a sub-histogram per block in shared memory, flushed once per block
  LanePrivate,    ///< 32 sub-histograms per block, one per lane index in its own bank (default)
};

/// `bins` equal bins over [lo, hi]: a value v with lo <= v <= hi falls in bin
/// floor((v - lo) * (bins / (hi - lo))) computed in double, the value hi itself in the last
/// bin; values outside [lo, hi] (and NaN) are not counted.
struct HistogramParams {
  int bins = 256;     ///< [1, 65536]
  double lo = 0.0;    ///< the first bin's lower edge; finite, below hi
  double hi = 256.0;  ///< the last bin's upper edge (counted in it); finite
};

}  // namespace gpufilter
