#pragma once
// The compiled radii of the 8-bit window kernels (separable_fixed.cu, separable_packed.cu):
// each is instantiated for R = 1 .. 4, and a mask runs in the window of its own radius.
#include <type_traits>

namespace gpufilter::kernels {

constexpr int kLargestCompiledRadius = 4;

// Calls f(std::integral_constant<int, R>) with the window R that runs a mask of `radius`
// (0 .. kLargestCompiledRadius): radius 0, a 1x1 mask, runs in the radius-1 window with
// zero outer taps.
template <class F>
void visit_window_radius(int radius, F&& f) {
  switch (radius) {
    case 0:
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    default: return f(std::integral_constant<int, 4>{});
  }
}

}  // namespace gpufilter::kernels
