#pragma once
// Launchers for the median filter's kernels (rank/median_kernels.cu). src and dst are
// validated device views of equal size and format that do not overlap, radius is in
// [1, kMedianMaxRadius], and `border.value` is already representable in the pixel type.
// Each launcher enqueues on ctx.stream and returns without waiting.
#include <cstddef>

#include "../common/alignment.hpp"  // relative: the library includes this header too
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

// The walk's wider groups and the row alignment they need, for channels of `channel_bytes`
// bytes: a word of channel values (4 bytes) on 8- and 16-bit gray and 8-bit RGB, a pair of
// pixels (8 bytes) on RGBA8; 0 where a format has none (a pixel a lane). The launcher picks
// its column kind by it at compile time.
constexpr std::size_t median_walk_group_bytes(std::size_t channel_bytes, int channels) {
  if (channels == 1 && channel_bytes <= 2) return 4;
  if (channels == 3 && channel_bytes == 1) return 4;
  if (channels == 4 && channel_bytes == 1) return 8;
  return 0;
}
inline std::size_t median_walk_group_bytes(PixelFormat format) {
  return median_walk_group_bytes(format.channel_bytes(), format.channels);
}

// Whether Auto takes the walk for a 3x3 window on these views: on 16- and 32-bit channels
// (a pixel a lane), and on 8-bit gray, RGB and RGBA whose rows start on the words its wider
// groups load; 8-bit views starting off those words keep the tiled kernel, which measured
// faster than the walk's pixel columns there (docs/gpu-results.md, "Median").
inline bool median_walk_is_auto(const ImageView& src, const ImageView& dst) {
  if (src.format.channel_bytes() >= 2) return true;
  const std::size_t group = median_walk_group_bytes(src.format);
  return group != 0 && rows_aligned(src, dst, group);
}

// The 3x3 median (radius 1 only) with no shared memory: a lane per column group (a pixel,
// or the wider group of median_walk_group_bytes where the rows allow) walks a strip of
// rows, its neighbours' pixels by shuffles, each window row sorted once as it arrives.
void launch_median_walk_3x3(const ImageView& src, const ImageView& dst, const Border& border,
                            const ExecContext& ctx);

}  // namespace gpufilter::kernels
