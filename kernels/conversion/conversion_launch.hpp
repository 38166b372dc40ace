#pragma once
// Launchers for the conversions: the output pixel a function of the input pixel alone.
// `unroll` (layout conversions) is the pixels per thread: 1 (the `pixel` variant) or 4
// (`unroll4`, all four loaded before any is stored). src and dst are validated device
// views of equal size. The lab's staged and vec16 kernels are in lab/conversion/.
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
  Pixel,      // one pixel per thread
  Unroll4,    // four pixels per thread, all loaded before any is stored
  Vec16Warp,  // 8-bit images: 16 pixels per thread, 16-byte loads and stores on rows that
              // start at 16-byte boundaries, the 48- and 64-byte sides regrouped through
              // shared memory; other views and types take Unroll4
};
void launch_convert_pixels(const ImageView& src, const ImageView& dst, const PixelMapping& mapping, PixelKernel kernel,
                           const ExecContext& ctx);
// The mapping with its byte-permute selectors filled for a source of `src_format`
// (launch_convert_pixels does it; other launchers of map kernels need it too).
PixelMapping with_selectors(PixelMapping mapping, PixelFormat src_format);

// Planes of one shape (1-channel, the image's type, one pitch), at most 4.
struct PlaneSet {
  void* planes[4] = {};
  std::size_t pitch = 0;
};
// Interleaved src (C channels) to C planes, and back.
void launch_to_planar(const ImageView& src, const PlaneSet& dst, int unroll, const ExecContext& ctx);
void launch_to_interleaved(const PlaneSet& src, const ImageView& dst, int unroll, const ExecContext& ctx);

// The vec16_warp kernels (8-bit images only; conversion_vec16.cuh): return false,
// launching nothing, for other types or maps, or when a row (or a plane's row) does not
// start at a 16-byte boundary. `mapping` has its selectors (with_selectors).
bool launch_convert_vec16(const ImageView& src, const ImageView& dst, const PixelMapping& mapping,
                          const ExecContext& ctx);
bool launch_to_planar_vec16(const ImageView& src, const PlaneSet& dst, const ExecContext& ctx);
bool launch_to_interleaved_vec16(const PlaneSet& src, const ImageView& dst, const ExecContext& ctx);

}  // namespace gpufilter::kernels
