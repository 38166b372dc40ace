// Geometry on the CPU: each source pixel is copied, byte for byte, to where the
// operation sends it (written from the source's side, the kernels mostly work from
// the destination's).
#include <cstring>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"

namespace gpufilter::reference {
namespace {

void expect_shape(const ImageView& src, const ImageView& dst, int width, int height, const char* what) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  if (dst.width != width || dst.height != height || dst.format != src.format)
    throw Error(ErrorCode::InvalidArgument, std::string(what) + ": destination is " + std::to_string(dst.width) + "x" +
                                                std::to_string(dst.height) + " " + dst.format.name() + ", expected " +
                                                std::to_string(width) + "x" + std::to_string(height) + " " +
                                                src.format.name());
}

// Sends source pixel (x, y) to destination pixel to(x, y) for every pixel.
template <class Where>
void scatter(const ImageView& src, const ImageView& dst, Where to) {
  const std::size_t bytes = src.format.pixel_bytes();
  for (int y = 0; y < src.height; ++y) {
    const unsigned char* row = src.row<const unsigned char>(y);
    for (int x = 0; x < src.width; ++x) {
      const auto [tx, ty] = to(x, y);
      std::memcpy(dst.row<unsigned char>(ty) + static_cast<std::size_t>(tx) * bytes, row + static_cast<std::size_t>(x) * bytes,
                  bytes);
    }
  }
}

struct Point {
  int x, y;
};

}  // namespace

void transpose(const ImageView& src, const ImageView& dst) {
  expect_shape(src, dst, src.height, src.width, "transpose");
  scatter(src, dst, [](int x, int y) { return Point{y, x}; });
}

void rotate_quarter_turns(const ImageView& src, const ImageView& dst, int angle_degrees) {
  if (angle_degrees % 90 != 0)
    throw Error(ErrorCode::InvalidArgument, "rotate: not a multiple of 90 degrees: " + std::to_string(angle_degrees));
  const int w = src.width, h = src.height;
  switch (((angle_degrees / 90) % 4 + 4) % 4) {
    case 0:  // the identity
      expect_shape(src, dst, w, h, "rotate");
      scatter(src, dst, [](int x, int y) { return Point{x, y}; });
      return;
    case 1:  // clockwise: the top row becomes the right column, read downwards
      expect_shape(src, dst, h, w, "rotate");
      scatter(src, dst, [h](int x, int y) { return Point{h - 1 - y, x}; });
      return;
    case 2:  // half turn
      expect_shape(src, dst, w, h, "rotate");
      scatter(src, dst, [w, h](int x, int y) { return Point{w - 1 - x, h - 1 - y}; });
      return;
    default:  // counter-clockwise: the top row becomes the left column, read upwards
      expect_shape(src, dst, h, w, "rotate");
      scatter(src, dst, [w](int x, int y) { return Point{y, w - 1 - x}; });
      return;
  }
}

void flip(const ImageView& src, const ImageView& dst, FlipAxis axis) {
  const int w = src.width, h = src.height;
  expect_shape(src, dst, w, h, "flip");
  const bool mirror_x = axis == FlipAxis::Horizontal || axis == FlipAxis::Both;
  const bool mirror_y = axis == FlipAxis::Vertical || axis == FlipAxis::Both;
  scatter(src, dst, [=](int x, int y) { return Point{mirror_x ? w - 1 - x : x, mirror_y ? h - 1 - y : y}; });
}

}  // namespace gpufilter::reference
