// The lab's bilinear_wide: the library's tiled rotation kernel (rotate_bilinear_tiled.cuh)
// with four adjacent pixels a lane and 16-byte stores where rows allow (slower than the
// tiled kernel; docs/lab.md, "Which variants stay").
#include "geometry/rotate_bilinear_tiled.cuh"
#include "lab/geometry/geometry_lab_launch.hpp"

namespace gpufilter::lab {

bool launch_rotate_bilinear_wide(const ImageView& src, const ImageView& dst, const double inverse_map[6],
                                 const double fill[4], const ExecContext& ctx) {
  using namespace gpufilter::kernels;
  if (blocks_for(dst.height, RotateTile::kRows) > 65535) return false;  // gridDim.y's limit
  launch_rotate_tiled<4>(src, dst, rotate_map(inverse_map), fill, ctx);
  return true;
}

}  // namespace gpufilter::lab
