#pragma once
// Where the median walk's column kinds (rank/median_walk_*.cuh) read at the image's
// border: a column once per lane, a row as it is read.
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

}  // namespace gpufilter::kernels::median_walk
