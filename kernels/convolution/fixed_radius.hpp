#pragma once
// The compiled radii of the 8-bit window kernels (separable_fixed.cu, separable_packed.cu):
// each is instantiated for R = 1 .. its largest radius, and a mask runs in the window of
// its own radius.
#include <type_traits>
#include <utility>

namespace gpufilter::kernels {

constexpr int kLargestCompiledRadius = 4;

// Calls f(std::integral_constant<int, R>) with the window R that runs a mask of `radius`
// (0 .. kLargest; larger radii run in kLargest's window): radius 0, a 1x1 mask, runs in
// the radius-1 window with zero outer taps. Each kernel compiles its own range.
template <int kLargest, int R = 1, class F>
void visit_window_radius_up_to(int radius, F&& f) {
  if constexpr (R < kLargest) {
    if (radius <= R) return f(std::integral_constant<int, R>{});
    return visit_window_radius_up_to<kLargest, R + 1>(radius, std::forward<F>(f));
  } else {
    return f(std::integral_constant<int, R>{});
  }
}

// The separable_fixed and gradient_int windows: radii 1 .. kLargestCompiledRadius.
template <class F>
void visit_window_radius(int radius, F&& f) {
  visit_window_radius_up_to<kLargestCompiledRadius>(radius, std::forward<F>(f));
}

}  // namespace gpufilter::kernels
