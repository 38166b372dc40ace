// The seed's naive transpose steps beyond the library's naive_row (000, 4.4.2): reading
// columns, four pixels a thread, blocks in diagonal order (transpose_naive.cuh).
#include "geometry/geometry_tuning.hpp"
#include "geometry/transpose_naive.cuh"
#include "lab/geometry/geometry_lab_launch.hpp"

namespace gpufilter::lab {

void launch_transpose_step(const ImageView& src, const ImageView& dst, kernels::QuarterTurnMap map,
                           TransposeStep step, BlockShape block, const ExecContext& ctx) {
  if (step.read_rows && !step.diagonal && !step.unroll) {  // the library's naive_row
    kernels::launch_transpose_naive(src, dst, map, block, ctx);
    return;
  }
  using kernels::launch_naive;
  kernels::visit_pixel_layout(src.format, [&](auto n, auto a) {
    constexpr int N = decltype(n)::value, A = decltype(a)::value;
    constexpr int U = kernels::GeometryTuning::kUnroll;
    if (step.unroll) {
      if (step.read_rows) launch_naive<N, A, true, false, U>(src, dst, map, block, ctx);
      else launch_naive<N, A, false, false, U>(src, dst, map, block, ctx);
    } else if (step.diagonal) {
      if (step.read_rows) launch_naive<N, A, true, true, 1>(src, dst, map, block, ctx);
      else launch_naive<N, A, false, true, 1>(src, dst, map, block, ctx);
    } else {
      launch_naive<N, A, false, false, 1>(src, dst, map, block, ctx);
    }
  });
  kernels::check_launch("transpose_naive_kernel", ctx);
}

}  // namespace gpufilter::lab
