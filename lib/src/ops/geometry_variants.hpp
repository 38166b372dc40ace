#pragma once
// The geometry family's variant tables, which its names and errors (geometry_names.cpp)
// and its registry entries (geometry_operations.cpp) read.
#include "gpufilter/geometry.hpp"
#include "ops/variant_table.hpp"

namespace gpufilter::ops {

inline constexpr VariantRow<TransposeVariant> kTransposeVariants[] = {
    {TransposeVariant::NaiveRow, "naive_row", "a thread per pixel, rows read, columns written"},
    {TransposeVariant::Tiled, "tiled", "a 32x32 tile through shared memory"},
    {TransposeVariant::TiledPadded, "tiled_padded", "the tile with a column of padding (no bank conflicts)"},
    {TransposeVariant::Fast, "fast", "the padded tile, several pixels a thread in words of up to 16 bytes"},
    {TransposeVariant::FastWide, "fast_wide", "fast with 16-byte global words for 1-byte pixels"},
};
// rotate by any angle (quarter turns take the transpose variants)
inline constexpr VariantRow<RotateVariant> kRotateVariants[] = {
    {RotateVariant::Direct, "bilinear", "any angle: a thread per pixel, positions in double"},
    {RotateVariant::Tiled, "bilinear_tiled", "any angle: a warp per 8x4 patch, fixed-point steps"},
};
inline constexpr VariantRow<FlipVariant> kFlipVariants[] = {
    {FlipVariant::Naive, "naive", "a thread per pixel"},
    {FlipVariant::Vectorized, "vectorized", "16-byte words reversed in registers"},
    {FlipVariant::Wide, "wide", "byte-permute reversal, several rows a thread, 48-byte words"},
};
inline constexpr VariantRow<ResizeVariant> kResizeVariants[] = {
    {ResizeVariant::Direct, "direct", "a thread per output pixel computes its taps"},
    {ResizeVariant::Fast, "fast", "direct, with kernels of wide words for 8-bit halving and linear enlarging"},
};

}  // namespace gpufilter::ops
