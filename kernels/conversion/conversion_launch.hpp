#pragma once
// Launchers for the conversions: the output pixel a function of the input pixel alone.
// `unroll` (layout conversions) is the pixels per thread: 1 (the `pixel` variant) or 4
// (`unroll4`, all four loaded before any is stored). src and dst are validated device views of equal size.
#include <cstddef>

#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

enum class PixelMap {
  Gray,       // C = 3, 4 -> 1: weights . (c0, c1, c2)
  AddAlpha,   // 3 -> 4: alpha = M
  DropAlpha,  // 4 -> 3
  Swap,       // C -> C: out[i] = in[from[i]]
  Depth,      // same channels, dst's channel type
};

struct PixelMapping {
  PixelMap map = PixelMap::Swap;
  float weights[3] = {0.0f, 0.0f, 0.0f};
  int from[4] = {0, 1, 2, 3};
  unsigned selector[2] = {0, 0};  // filled by the launcher from `from` (byte permutes)
};

enum class PixelKernel {
  Pixel,    // one pixel per thread
  Unroll4,  // four pixels per thread, all loaded before any is stored
  Staged,   // a row segment through shared memory: 16-byte global loads and stores
  Vec16,    // 8-bit images: 16 pixels per thread, 16-byte loads and stores on rows that
            // start at 16-byte boundaries; other views and types take Unroll4
  Vec16Warp,  // Vec16 with the 48- and 64-byte sides regrouped through shared memory
};
void launch_convert_pixels(const ImageView& src, const ImageView& dst, const PixelMapping& mapping, PixelKernel kernel,
                           const ExecContext& ctx);

// Planes of one shape (1-channel, the image's type, one pitch), at most 4.
struct PlaneSet {
  void* planes[4] = {};
  std::size_t pitch = 0;
};
// Interleaved src (C channels) to C planes, and back.
void launch_to_planar(const ImageView& src, const PlaneSet& dst, int unroll, const ExecContext& ctx);
void launch_to_interleaved(const PlaneSet& src, const ImageView& dst, int unroll, const ExecContext& ctx);

// The vec16 kernels (8-bit images only): return false, launching nothing, for other
// types or maps, or when a row (or a plane's row) does not start at a 16-byte boundary.
// warp: regroup 3- and 4-channel sides through shared memory (vec16_warp).
bool launch_convert_vec16(const ImageView& src, const ImageView& dst, const PixelMapping& mapping, bool warp,
                          const ExecContext& ctx);
bool launch_to_planar_vec16(const ImageView& src, const PlaneSet& dst, bool warp, const ExecContext& ctx);
bool launch_to_interleaved_vec16(const PlaneSet& src, const ImageView& dst, bool warp, const ExecContext& ctx);

}  // namespace gpufilter::kernels
