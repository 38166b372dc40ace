#pragma once
// The conversion family's variant table, which its names and errors
// (conversion_names.cpp) and its registry entries (conversion_operations.cpp) read, and
// the parameters both sides of its ops read (the GPU side: gpu/conversion_gpu.cpp).
#include <string>

#include "gpufilter/conversions.hpp"
#include "gpufilter/registry.hpp"
#include "common/variant_table.hpp"

namespace gpufilter::ops {

inline constexpr VariantRow<ConversionVariant> kConversionVariants[] = {
    {ConversionVariant::Pixel, "pixel", "one pixel per thread"},
    {ConversionVariant::Unroll4, "unroll4", "four pixels per thread, all loaded before any is stored"},
    {ConversionVariant::Vec16Warp, "vec16_warp",
     "8-bit: 16 pixels a thread in 16-byte words, regrouped through a per-warp stage"},
};

// swap_channels' --order ("" when not given: red and blue swapped).
std::string order_of(const ParamValues& values);
// interleaved's --channels: 3 or 4, required.
int planes_of(const ParamValues& values);

}  // namespace gpufilter::ops
