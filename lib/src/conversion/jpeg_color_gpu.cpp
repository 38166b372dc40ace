// The GPU side of gpufilter/jpeg_color.hpp: the CPU side's checks, then one launch.
#include "conversion/jpeg_color_checks.hpp"
#include "gpufilter/jpeg_color.hpp"
#include "kernels/conversion/jpeg_ycc_launch.hpp"
#include "common/op_checks.hpp"

namespace gpufilter {

void ycc_planes_to_rgb(const YccPlanes& planes, const ImageView& dst, const ExecContext& ctx) {
  check_ycc_planes(planes, dst);
  ops::check_device_pair("ycc_planes_to_rgb", planes.y, dst);
  ops::check_device_pair("ycc_planes_to_rgb", planes.cb, planes.cr);
  kernels::launch_ycc_planes_to_rgb(ycc_plane_of(planes.y), ycc_plane_of(planes.cb), ycc_plane_of(planes.cr),
                                    planes.h_factor, planes.v_factor, dst, ctx);
}

}  // namespace gpufilter
