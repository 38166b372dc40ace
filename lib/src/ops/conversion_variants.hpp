#pragma once
// The conversion family's variant table, which its names and errors
// (conversion_ops.cpp) and its registry entries (conversion_operations.cpp) read.
#include "gpufilter/conversions.hpp"
#include "ops/variant_table.hpp"

namespace gpufilter::ops {

inline constexpr VariantRow<ConversionVariant> kConversionVariants[] = {
    {ConversionVariant::Pixel, "pixel", "one pixel per thread"},
    {ConversionVariant::Unroll4, "unroll4", "four pixels per thread, all loaded before any is stored"},
    {ConversionVariant::Vec16Warp, "vec16_warp",
     "8-bit: 16 pixels a thread in 16-byte words, regrouped through a per-warp stage"},
};

}  // namespace gpufilter::ops
