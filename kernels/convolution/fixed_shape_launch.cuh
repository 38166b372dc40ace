#pragma once
// Launching the register-window kernels (gradient_int.cuh, the lab's separable_fixed.cu)
// in any of their shapes (FixedShape, fixed_shape.hpp): the strips a shape
// cuts the image into for a given kernel, and the launch.
#include <cuda_runtime.h>

#include <type_traits>

#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "convolution/fixed_point_rows.cuh"
#include "convolution/fixed_strip_plan.hpp"
#include "convolution/fixed_shape.hpp"

namespace gpufilter::kernels {

// The strips `kernel` (launched in Shape's blocks, `columns` of them across) walks:
// fixed-length ones, or (kBalancedStrips) as many as fill whole waves of the blocks
// the current device keeps resident, each between bounds.min_rows and bounds.max_rows.
template <class Shape, class Kernel>
StripPlan strip_plan_for(Kernel kernel, long long columns, int height, StripBounds bounds) {
  if constexpr (!Shape::kBalancedStrips) {
    return fixed_strips(height, Shape::kFixedStripRows);
  } else {
    const long long resident = static_cast<long long>(cached_blocks_per_sm(reinterpret_cast<const void*>(kernel),
                                                                            Shape::kBlockThreads, 0)) *
                               cached_sm_count();
    return fixed_strip_plan(columns, height, resident, bounds.min_rows, bounds.max_rows);
  }
}

// Launches `kernel` (a register-window kernel made for Shape and C channels) over src in
// Shape's blocks and strips, with the arguments every such kernel takes.
template <class Shape, int C, class Kernel, class Taps>
void launch_in_shape(Kernel kernel, const char* name, const ImageView& src, const ImageView& dst,
                     const ByteImage& image, const Taps& taps, bool aligned, StripBounds bounds,
                     const ExecContext& ctx) {
  const long long threads = blocks_for(src.width, Shape::pixels_per_thread(C));
  const long long columns = blocks_for(threads, Shape::kBlockThreads);
  const StripPlan plan = strip_plan_for<Shape>(kernel, columns, src.height, bounds);
  const dim3 grid(grid_x(columns, name), grid_y(plan.strips));
  kernel<<<grid, Shape::kBlockThreads, 0, ctx.stream>>>(image, static_cast<unsigned char*>(dst.data), dst.pitch, taps,
                                                         aligned, plan.rows, plan.strips);
  check_launch(name, ctx);
}

}  // namespace gpufilter::kernels
