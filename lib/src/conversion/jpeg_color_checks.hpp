#pragma once
// What both sides of gpufilter/jpeg_color.hpp check, and the kernels' view of a plane.
#include "gpufilter/jpeg_color.hpp"
#include "kernels/conversion/jpeg_ycc_math.hpp"

namespace gpufilter {

// Error(InvalidArgument) for planes or a destination that break jpeg_color.hpp's rules.
void check_ycc_planes(const YccPlanes& planes, const ImageView& dst);
kernels::YccPlane ycc_plane_of(const ImageView& view);

}  // namespace gpufilter
