#pragma once
/// @file
/// The median filter's parameters and kernel choices (median.hpp has the op).
/// Plain types: the kernels see these, never the op's declaration.
namespace gpufilter {

/// The median filter's window.
struct MedianParams {
  int radius = 1;  ///< the window is (2 * radius + 1) pixels square: 1 is 3x3, 3 is 7x7
  static constexpr int kMaxRadius = 3;  ///< the largest radius the kernels take
};

/// The kernels of the median filter; each runs every radius, format and border.
enum class MedianVariant {
  Auto,   ///< tiled
  Naive,  ///< one thread per pixel: its window read from global memory with a border
          ///< branch at every tap, the median found by a selection sort
  Tiled,  ///< a shared-memory tile with its halo (border handled only by edge blocks);
          ///< selection networks in registers shared by neighbouring outputs; 8- and
          ///< 16-bit RGBA ordered as 16-bit pairs, two channels per instruction
};

}  // namespace gpufilter
