#pragma once
// The affine map of a rotation by any angle from output to source pixels, which the
// bilinear kernels take (geometry_launch.hpp): the library's rotate() and the lab's
// rotation kernels compute it here. Plain C++, host only.
#include <cmath>

namespace gpufilter::kernels {

// Clockwise on screen (y down) about the two images' centres: dst offset = R * src
// offset, so src offset = R^T * dst offset. dst(x, y) samples src at
// (m[0] x + m[1] y + m[2], m[3] x + m[4] y + m[5]).
inline void rotation_inverse_map(int src_width, int src_height, int dst_width, int dst_height, double angle_degrees,
                                 double m[6]) {
  const double radians = angle_degrees * 3.14159265358979323846 / 180.0;
  const double c = std::cos(radians), s = std::sin(radians);
  const double src_cx = (src_width - 1) / 2.0, src_cy = (src_height - 1) / 2.0;
  const double dst_cx = (dst_width - 1) / 2.0, dst_cy = (dst_height - 1) / 2.0;
  m[0] = c;
  m[1] = s;
  m[2] = src_cx - c * dst_cx - s * dst_cy;
  m[3] = -s;
  m[4] = c;
  m[5] = src_cy + s * dst_cx - c * dst_cy;
}

}  // namespace gpufilter::kernels
