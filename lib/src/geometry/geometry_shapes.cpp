// The geometry ops' output sizes: a resize fitted in a box, a rotation's bounding box.
#include <algorithm>
#include <cmath>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"

namespace gpufilter {

Rect rotated_size(int width, int height, double angle_degrees, bool expand) {
  if (!expand) return Rect{0, 0, width, height};
  const double radians = angle_degrees * 3.14159265358979323846 / 180.0;
  const double c = std::fabs(std::cos(radians)), s = std::fabs(std::sin(radians));
  // The bounding box of the rotated rectangle; the 1e-9 keeps 100.0000000001 at 100.
  const auto side = [](double length) { return static_cast<int>(std::max(1.0, std::ceil(length - 1e-9))); };
  return Rect{0, 0, side(width * c + height * s), side(width * s + height * c)};
}

Rect resize_fit(int src_width, int src_height, int width, int height, bool exact) {
  if (src_width <= 0 || src_height <= 0 || width <= 0 || height <= 0)
    throw Error(ErrorCode::InvalidArgument, "resize: sizes must be positive, got " + std::to_string(width) + "x" +
                                                std::to_string(height) + " for a " + std::to_string(src_width) + "x" +
                                                std::to_string(src_height) + " image");
  if (exact) return Rect{0, 0, width, height};
  // The side that limits the scale keeps the requested length exactly; the other is rounded.
  const double sx = static_cast<double>(width) / src_width, sy = static_cast<double>(height) / src_height;
  const auto scaled = [](int n, double s) { return static_cast<int>(std::max(1.0, std::round(n * s))); };
  if (sx <= sy) return Rect{0, 0, width, std::min(height, scaled(src_height, sx))};
  return Rect{0, 0, std::min(width, scaled(src_width, sy)), height};
}

}  // namespace gpufilter
