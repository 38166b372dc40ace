#pragma once
// Where the median walk's column kinds (rank/median_walk_*.cuh) read at the image's
// border: a column once per lane, a row as it is read; and the lane set-up of the kinds
// that take a group of elements a lane (words of gray or RGB, RGBA8 pairs).
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

// A lane's group of kElements neighbouring elements of a row (words: pixels of gray;
// on 8-bit RGB, channel values, C a pixel; RGBA8 pairs: whole pixels) and the C elements
// beyond the warp's edge that lanes 0 and 31 read (the pixel beside the group), worked
// out once a lane. Groups wholly inside the image load and store whole; the others (at
// its right edge and beyond) read each element through the border and write those inside.
template <int kElements, int C>
struct GroupLane {
  const unsigned char* own;  // the group's first element (rows follow at the pitch)
  unsigned char* out;
  int index[kElements];  // where the group's elements read, mapped, when not whole
  int edge_index[C];     // the elements beyond the warp's edge, mapped
  unsigned outside;      // bit j: element j lies outside the image; bits kElements + k: edge element k
  int inside;            // elements of the group inside the image (0 to kElements)
  int first_channel;     // the channel of the group's first element
  int edge_channel;      // the channel of the first edge element
  bool whole, reads_edge;
};

// Element e of a row of `width` pixels of C elements, mapped through the border (e is at
// least -C: at most one pixel left of the row).
template <int C>
__device__ __forceinline__ int element_at(int e, int width, const BorderAxis& axis) {
  const int pixel = (e + C) / C - 1;
  return read_at(pixel, width, axis) * C + (e - pixel * C);
}

// Group `group` of views `width` pixels wide, C elements of `element_bytes` a pixel.
template <int kElements, int C>
__device__ __forceinline__ GroupLane<kElements, C> group_lane(int group, int lane, const unsigned char* src,
                                                              unsigned char* dst, int width,
                                                              std::size_t element_bytes, const BorderAxis& axis) {
  const int e0 = group * kElements;
  const int elements = width * C;
  GroupLane<kElements, C> at{};
  at.own = src + static_cast<std::size_t>(e0) * element_bytes;
  at.out = dst + static_cast<std::size_t>(e0) * element_bytes;
#pragma unroll
  for (int j = 0; j < kElements; ++j) {
    at.index[j] = element_at<C>(e0 + j, width, axis);
    if (e0 + j >= elements) at.outside |= 1u << j;
  }
  const int edge = lane == 0 ? e0 - C : e0 + kElements;  // read by lanes 0 and 31 only
#pragma unroll
  for (int k = 0; k < C; ++k) {
    at.edge_index[k] = element_at<C>(edge + k, width, axis);
    if (edge + k < 0 || edge + k >= elements) at.outside |= 1u << (kElements + k);
  }
  at.inside = min(max(elements - e0, 0), kElements);
  at.first_channel = e0 % C;
  at.edge_channel = (edge + C) % C;  // edge is at least -C
  at.whole = at.inside == kElements;
  at.reads_edge = lane == 0 || lane == 31;
  return at;
}

// Element `index` of a row, of type P, or the constant where the border gives it.
template <bool kConstant, class P>
__device__ __forceinline__ P group_pixel(const unsigned char* row, int index, bool constant_here, P constant) {
  return kConstant && constant_here ? constant : reinterpret_cast<const P*>(row)[index];
}

}  // namespace gpufilter::kernels::median_walk
