#pragma once
// The geometry family's variant tables, which its names and errors (geometry_names.cpp)
// and its registry entries (geometry_operations.cpp) read, and the parameters both sides
// of its ops read (geometry_operations.cpp; the GPU side: gpu/geometry_gpu.cpp).
#include <array>
#include <string>

#include "gpufilter/geometry.hpp"
#include "gpufilter/registry.hpp"
#include "common/variant_table.hpp"

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

// Whether `name` is one of rotate's bilinear variants (else a transpose variant's).
bool is_rotate_variant_name(const std::string& name);
// The transpose variant named, with --block.
TransposeOptions transpose_options(const ParamValues& values, const std::string& variant);
// rotate's --angle as a whole number of degrees, for quarter turns.
int quarter_turn_angle(const ParamValues& values);
bool is_quarter_turn(double angle);
// rotate's --fill: one value for every channel, or one per channel with the last repeated.
std::array<double, 4> fill_of(const ParamValues& values);
// resize's --filter for this input and output (auto: area when shrinking, else linear).
ResizeFilter resize_filter_for(const ImageView& src, const ImageView& dst, const ParamValues& values);

}  // namespace gpufilter::ops
