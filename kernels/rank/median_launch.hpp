#pragma once
// Launchers for the median filter's kernels (rank/median_kernels.cu). src and dst are
// validated device views of equal size and format that do not overlap, radius is in
// [1, kMedianMaxRadius], and `border.value` is already representable in the pixel type.
// Each launcher enqueues on ctx.stream and returns without waiting.
#include "gpufilter/border.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// The largest radius the kernels take: a kernel per radius, 1 to this (3: 7x7). The
// library's MedianParams::kMaxRadius is this (lib/src/rank/median_gpu.cpp checks).
constexpr int kMedianMaxRadius = 3;

// One thread per pixel: its window from global memory with a border branch at every tap,
// the median by a selection sort. The baseline the bench measures the tiled kernel against.
void launch_median_naive(const ImageView& src, const ImageView& dst, int radius, const Border& border,
                         const ExecContext& ctx);

// A 32x32 tile of outputs per block, its input with the halo in shared memory (only blocks
// at the image's edge map coordinates through the border); each thread orders a column of
// 4 or 8 outputs in registers, sharing the work of the window rows they have in common.
void launch_median_tiled(const ImageView& src, const ImageView& dst, int radius, const Border& border,
                         const ExecContext& ctx);

// Whether Auto takes the walk for a 3x3 window on this format: on 16- and 32-bit channels
// and on 8-bit gray (a word of 4 pixels a lane), where it measured faster than the tiled
// kernel; on 8-bit RGB and RGBA the tiled kernel's fewer instructions a pixel won
// (docs/gpu-results.md, "Median").
inline bool median_walk_is_auto(PixelFormat format) { return format.channel_bytes() >= 2 || format.channels == 1; }

// The 3x3 median (radius 1 only) with no shared memory: a lane per column (on 8- and
// 16-bit gray whose rows start on words, a word of pixels a lane) walks a strip of rows,
// its neighbours' pixels by shuffles, each window row sorted once as it arrives.
void launch_median_walk_3x3(const ImageView& src, const ImageView& dst, const Border& border,
                            const ExecContext& ctx);

}  // namespace gpufilter::kernels
