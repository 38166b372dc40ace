#pragma once
// Bordered reads under a runtime border mode (common/border_map.hpp), for kernels that
// take the mode as an argument instead of a template parameter and call these only in
// blocks whose reads can leave the image. A read inside the image is the same test and
// load as border.cuh's load_bordered<B>.
#include <cuda_runtime.h>

#include <cstddef>

#include "common/border_map.hpp"
#include "common/pixel.cuh"

namespace gpufilter::kernels {

// A launch's border in the branch-free form, made on the host for the view it reads:
// each axis's map, and whether reads outside take the constant pixel.
struct BorderReads {
  BorderAxis x, y;
  bool constant;
};

inline BorderReads border_reads(BorderMode mode, int width, int height) {
  return BorderReads{border_axis(mode, width), border_axis(mode, height), mode == BorderMode::Constant};
}

// The border's constant as a pixel of the view's type (border.value is already
// representable in it).
template <class T, int C>
Pixel<T, C> constant_pixel(const Border& border) {
  Pixel<T, C> p{};
  for (int c = 0; c < C; ++c) p.c[c] = static_cast<T>(border.value[static_cast<std::size_t>(c)]);
  return p;
}

// Reads (x, y) of `view`, which may lie outside it, under `mode` (a switch over the modes).
template <class T, int C>
__device__ __forceinline__ Pixel<T, C> load_bordered(const PitchedView<T, C>& view, int x, int y, BorderMode mode,
                                                     const Pixel<T, C>& constant) {
  if (x >= 0 && x < view.width && y >= 0 && y < view.height) return view.at(x, y);
  if (mode == BorderMode::Constant) return constant;
  return view.at(border_map(x, view.width, mode), border_map(y, view.height, mode));
}

// The same read without a branch on the mode; `border` was made for this view. Under
// Constant the mapped read is a pixel of the image, then replaced.
template <class T, int C>
__device__ __forceinline__ Pixel<T, C> load_bordered(const PitchedView<T, C>& view, int x, int y,
                                                     const BorderReads& border, const Pixel<T, C>& constant) {
  if (x >= 0 && x < view.width && y >= 0 && y < view.height) return view.at(x, y);
  const Pixel<T, C> p = view.at(border_map(x, view.width, border.x), border_map(y, view.height, border.y));
  return border.constant ? constant : p;
}

}  // namespace gpufilter::kernels
