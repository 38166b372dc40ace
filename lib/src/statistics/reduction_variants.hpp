#pragma once
// The reduction family's variant tables: stats (stats_op.cpp) and the histograms that
// histogram, equalize, threshold and normalize share (histogram_op.cpp, tone_ops.cpp),
// and the parameters both sides of those ops read (their GPU side: gpu/).
#include "gpufilter/registry.hpp"
#include "gpufilter/statistics.hpp"
#include "gpufilter/tone.hpp"
#include "common/variant_table.hpp"

namespace gpufilter::ops {

// auto first: the bench divides stats rows by auto's time (it has no naive variant by name).
inline constexpr VariantRow<ReductionVariant> kReductionVariants[] = {
    {ReductionVariant::Auto, "auto", "the fastest measured for the format and GPU"},
    {ReductionVariant::Interleaved, "interleaved", "a shared-memory tree, interleaved pairs (divergent warps)"},
    {ReductionVariant::Packed, "packed", "a grid-stride walk, u8 four samples a word"},
    {ReductionVariant::PackedWarpPrefetch, "packed_warp_prefetch",
     "u8 bounds tested against the warp's, the next step's loads ahead"},
    {ReductionVariant::PackedWarpBulk, "packed_warp_bulk", "packed_warp with whole images copied ahead (sm_90)"},
};

inline constexpr VariantRow<HistogramVariant> kHistogramVariants[] = {
    {HistogramVariant::GlobalAtomic, "global_atomic", "one 64-bit global atomic a sample"},
    {HistogramVariant::SharedPrivate, "shared_private", "a sub-histogram a block in shared memory"},
    {HistogramVariant::LanePrivate, "lane_private", "32 sub-histograms a block, one a lane index in its own bank"},
};

// histogram's: the format's defaults, overridden by --bins and --range where given.
HistogramParams histogram_params(PixelFormat format, const ParamValues& values);

// The tone ops': equalize's --per-channel, threshold's --value and --otsu, normalize's --clip.
EqualizeParams equalize_params(const ParamValues& values);
ThresholdParams threshold_params(const ParamValues& values);
NormalizeParams normalize_params(const ParamValues& values);

}  // namespace gpufilter::ops
