// The library's naive transpose (naive_row): a thread per pixel, rows read, columns
// written (the kernel template is in transpose_naive.cuh).
#include "geometry/geometry_launch.hpp"
#include "geometry/transpose_naive.cuh"

namespace gpufilter::kernels {

void launch_transpose_naive(const ImageView& src, const ImageView& dst, QuarterTurnMap map, BlockShape block,
                            const ExecContext& ctx) {
  visit_pixel_layout(src.format, [&](auto n, auto a) {
    constexpr int N = decltype(n)::value, A = decltype(a)::value;
    launch_naive<N, A, true, false, 1>(src, dst, map, block, ctx);
  });
  check_launch("transpose_naive_kernel", ctx);
}

}  // namespace gpufilter::kernels
