#pragma once
// The grid of a kernel that walks strips of whole steps down bands of output columns (the
// separable strip kernel, the column walk): a block for each band and each strip, the
// strips as long as step_strip_plan picks from the kernel's resident blocks. The kernels
// walk the strips with a stride of gridDim.y, so where the grid's rows run out a block
// takes more than one.
#include <cuda_runtime.h>

#include <cstddef>

#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "convolution/fixed_strip_plan.hpp"
#include "gpufilter/image_view.hpp"

namespace gpufilter::kernels {

struct StripGrid {
  dim3 grid;
  int strip_rows;  // the kernel's strip length
};

// `kernel` launched with `threads` threads and `shared` bytes of dynamic shared memory,
// over bands of `band` output columns of `src`. The occupancy query (cached_blocks_per_sm)
// also opts the kernel in to `shared` bytes, so its callers need not.
inline StripGrid step_strip_grid(const ImageView& src, int band, const void* kernel, int threads,
                                 std::size_t shared, const StepStrips& steps, const char* kernel_name) {
  const long long columns = blocks_for(src.width, band);
  const long long resident = static_cast<long long>(cached_blocks_per_sm(kernel, threads, shared)) * cached_sm_count();
  const StripPlan plan = step_strip_plan(columns, src.height, resident, steps);
  return {dim3(grid_x(columns, kernel_name), grid_y(plan.strips)), plan.rows};
}

}  // namespace gpufilter::kernels
