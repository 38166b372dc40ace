#pragma once
// The pixel maps of the conversion ops, as the map kernels take them, from their core
// parameter types: the library's ops (lib/src/conversion/conversion_gpu.cpp) and the lab's
// kernels make them here. Plain C++.
#include "conversion_launch.hpp"  // same folder: included from the library and the lab
#include "gpufilter/conversion_types.hpp"

namespace gpufilter::kernels {

inline PixelMapping map_only(PixelMap map) {
  PixelMapping m;
  m.map = map;
  return m;
}

// BT.601 (as cv::cvtColor) or BT.709 luma weights.
inline PixelMapping gray_mapping(GrayWeights weights) {
  PixelMapping m = map_only(PixelMap::Gray);
  if (weights == GrayWeights::Bt601) m.weights[0] = 0.299f, m.weights[1] = 0.587f, m.weights[2] = 0.114f;
  else m.weights[0] = 0.2126f, m.weights[1] = 0.7152f, m.weights[2] = 0.0722f;
  return m;
}

// Output channel i is input channel order.from[i].
inline PixelMapping swap_mapping(const ChannelOrder& order) {
  PixelMapping m = map_only(PixelMap::Swap);
  for (int c = 0; c < 4; ++c) m.from[c] = order.from[c];
  return m;
}

}  // namespace gpufilter::kernels
