// The library's tiled bilinear rotation: the kernel of rotate_bilinear_tiled.cuh, a
// pixel a lane per row.
#include "geometry/geometry_launch.hpp"
#include "geometry/rotate_bilinear_tiled.cuh"

namespace gpufilter::kernels {

bool launch_rotate_bilinear_tiled(const ImageView& src, const ImageView& dst, const double inverse_map[6],
                                  const double fill[4], const ExecContext& ctx) {
  if (blocks_for(dst.height, RotateTile::kRows) > 65535) return false;  // gridDim.y's limit
  launch_rotate_tiled<1>(src, dst, rotate_map(inverse_map), fill, ctx);
  return true;
}

}  // namespace gpufilter::kernels
