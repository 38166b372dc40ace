#pragma once
// Launchers for the general 2-D filter kernels (seed 004): any FilterSpec (one or two
// masks of any odd size, and its output rule), every border mode, every pixel format.
// src and dst are validated device views of equal size and format that do not
// overlap; `border.value` is already representable in the pixel type. Each launcher
// enqueues on ctx.stream and returns without waiting.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// One thread per pixel; the masks in global memory; the border decided at every tap.
// Runs any mask size. The baseline the bench measures the others against.
void launch_filter2d_naive(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                           const ExecContext& ctx);

// Whether the masks fit the __constant__ buffer the next three variants read them from.
bool filter2d_constant_fits(const FilterSpec& spec);

// One thread per pixel, the masks in __constant__ memory (every thread of a warp reads
// the same tap: a broadcast), the border decided at every tap, no shared memory.
void launch_filter2d_constant(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                              const Border& border, const ExecContext& ctx);

// Whether the tiled variant's tile plus halo fits the shared memory of one block on
// the current device (common/device_limits.hpp).
bool filter2d_tiled_fits(PixelFormat format, const FilterSpec& spec);

// Whether the `tiled` variant runs the spec: on the column walk, or on the tile where its
// masks fit __constant__ and its tile shared memory (both below).
bool filter2d_tiled_runs(PixelFormat format, const FilterSpec& spec);

// The `tiled` variant: masks up to 5x5 on the column walk, larger ones on the tile
// (each as below).
void launch_filter2d_tiled(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                           const ExecContext& ctx);

// Seed strategy 1: each block loads its output tile plus the halo into shared memory
// once (the border policy applied only by blocks at the image's edge), then every
// tap reads shared memory. Masks in __constant__. Any mask size that fits (the lab
// runs it by name on small masks too, beside the column walk).
void launch_filter2d_tile(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                          const ExecContext& ctx);

// Whether the column walk runs the spec: its masks (one, or two for Magnitude) at most
// Filter2dWalkTuning::kMaxRadius each side of the centre; any format.
bool filter2d_walk_fits(const FilterSpec& spec);

// Small masks: a warp walks down 32 adjacent columns, the rows of each column in
// registers, each mask column's sums passed between lanes by shuffles
// (filter2d_walk.cuh). Masks as kernel arguments. Throws Error(InvalidArgument) where
// filter2d_walk_fits() is false.
void launch_filter2d_walk(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                          const ExecContext& ctx);

namespace walk {
// One pixel type's column-walk kernels (filter2d_walk_<type>.cu), for launch_filter2d_walk.
template <class T>
void launch_typed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                  const ExecContext& ctx);
}  // namespace walk

// Seed strategy 2: only the output tile goes to shared memory; taps that fall in the
// halo read global memory, which the neighbouring block has just brought into L2.
void launch_filter2d_tiled_l2(const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                              const Border& border, const ExecContext& ctx);

}  // namespace gpufilter::kernels
