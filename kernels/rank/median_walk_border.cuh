#pragma once
// Where the median walk's column kinds (rank/median_walk_*.cuh) read at the image's
// border: a column once per lane, a row as it is read; and the lane set-up of the kinds
// that take a group of pixels a lane (gray words, RGBA8 pairs).
#include <cstddef>

#include "common/border_runtime.cuh"

namespace gpufilter::kernels::median_walk {

// The coordinate that coordinate i of an axis of n reads: i inside, mapped outside.
__device__ __forceinline__ int read_at(int i, int n, const BorderAxis& axis) {
  return i >= 0 && i < n ? i : border_map(i, n, axis);
}

// Where image row y is read from: its byte offset (`offset`, the one running from row to
// row, where y lies inside; the mapped row's outside) and whether it lies inside.
struct RowAt {
  long long offset;
  bool inside;
};

// kRowInside: the caller knows y lies inside, so there is nothing to test.
template <bool kRowInside>
__device__ __forceinline__ RowAt row_at(int y, long long offset, int height, long long pitch,
                                        const BorderAxis& axis) {
  if constexpr (kRowInside) {
    return RowAt{offset, true};
  } else {
    const bool inside = y >= 0 && y < height;
    return RowAt{inside ? offset : static_cast<long long>(border_map(y, height, axis)) * pitch, inside};
  }
}

// A lane's group of kPixels neighbouring pixels (gray words, RGBA8 pairs) and the pixel
// beyond the warp's edge that lanes 0 and 31 read, worked out once a lane. Groups wholly
// inside the image load and store whole; the others (at its right edge and beyond) read
// each pixel through the border and write those inside.
template <int kPixels>
struct GroupLane {
  const unsigned char* own;  // the group's first pixel (rows follow at the pitch)
  unsigned char* out;
  int index[kPixels];  // where the group's pixels read, mapped, when not whole
  int edge_index;      // the pixel beyond the warp's edge, mapped
  unsigned outside;    // bit j: pixel j of the group lies outside the image; bit kPixels: the edge pixel
  int inside;          // pixels of the group inside the image (0 to kPixels)
  bool whole, reads_edge;
};

// Group `group` of views `width` pixels wide, `pixel_bytes` a pixel.
template <int kPixels>
__device__ __forceinline__ GroupLane<kPixels> group_lane(int group, int lane, const unsigned char* src,
                                                         unsigned char* dst, int width, std::size_t pixel_bytes,
                                                         const BorderAxis& axis) {
  const int x0 = group * kPixels;
  GroupLane<kPixels> at{};
  at.own = src + static_cast<std::size_t>(x0) * pixel_bytes;
  at.out = dst + static_cast<std::size_t>(x0) * pixel_bytes;
#pragma unroll
  for (int j = 0; j < kPixels; ++j) {
    at.index[j] = read_at(x0 + j, width, axis);
    if (x0 + j >= width) at.outside |= 1u << j;
  }
  const int edge = lane == 0 ? x0 - 1 : x0 + kPixels;  // read by lanes 0 and 31 only
  at.edge_index = read_at(edge, width, axis);
  if (edge < 0 || edge >= width) at.outside |= 1u << kPixels;
  at.inside = min(max(width - x0, 0), kPixels);
  at.whole = at.inside == kPixels;
  at.reads_edge = lane == 0 || lane == 31;
  return at;
}

// Pixel `index` of a row, of type P, or the constant where the border gives it.
template <bool kConstant, class P>
__device__ __forceinline__ P group_pixel(const unsigned char* row, int index, bool constant_here, P constant) {
  return kConstant && constant_here ? constant : reinterpret_cast<const P*>(row)[index];
}

}  // namespace gpufilter::kernels::median_walk
