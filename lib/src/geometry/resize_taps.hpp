#pragma once
// Resize's definition along one axis: for each output coordinate, the source coordinates
// it reads and their weights, from each filter's definition as a function of distance
// (geometry.hpp). The reference sums them in double; the CPU path takes the same taps.
#include <vector>

#include "gpufilter/geometry.hpp"

namespace gpufilter::reference {

struct Tap {
  int index;      // a source coordinate in [0, n): the edge pixel repeats beyond the image
  double weight;  // the taps of one output coordinate sum to 1
};

// The output coordinate d's taps over a source axis of n pixels resized to `out`.
std::vector<Tap> axis_taps(int d, int n, int out, ResizeFilter filter);

}  // namespace gpufilter::reference
