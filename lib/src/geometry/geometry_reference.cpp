// Geometry on the CPU. Transpose, quarter turns and flips copy each source pixel, byte
// for byte, to where the operation sends it (written from the source's side; the
// kernels mostly work from the destination's). Resize sums weighted taps in double.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"
#include "common/pixel_access.hpp"
#include "geometry/resize_taps.hpp"

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

// ---- resize ------------------------------------------------------------------------------
// Separable weights (reference/resize_taps.hpp): each output sample sums its rows' and
// columns' taps in double.

namespace gpufilter::reference {

void resize(const ImageView& src, const ImageView& dst, ResizeFilter filter) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  if (src.format != dst.format) throw Error(ErrorCode::InvalidArgument, "resize: source and destination formats differ");
  std::vector<std::vector<Tap>> columns(static_cast<std::size_t>(dst.width));
  for (int x = 0; x < dst.width; ++x) columns[static_cast<std::size_t>(x)] = axis_taps(x, src.width, dst.width, filter);
  const int channels = src.format.channels;
  std::vector<double> sum(static_cast<std::size_t>(channels));
  for (int y = 0; y < dst.height; ++y) {
    const std::vector<Tap> rows = axis_taps(y, src.height, dst.height, filter);
    for (int x = 0; x < dst.width; ++x) {
      std::fill(sum.begin(), sum.end(), 0.0);
      for (const Tap& ty : rows)
        for (const Tap& tx : columns[static_cast<std::size_t>(x)])
          for (int c = 0; c < channels; ++c)
            sum[static_cast<std::size_t>(c)] += ty.weight * tx.weight * read_channel(src, tx.index, ty.index, c);
      for (int c = 0; c < channels; ++c) write_channel(dst, x, y, c, sum[static_cast<std::size_t>(c)]);
    }
  }
}

}  // namespace gpufilter::reference

// ---- rotation by any angle ---------------------------------------------------------------

namespace gpufilter::reference {
namespace {

constexpr double kRotatePi = 3.14159265358979323846;

}  // namespace

void rotate(const ImageView& src, const ImageView& dst, double angle_degrees, const std::array<double, 4>& fill) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  if (src.format != dst.format) throw Error(ErrorCode::InvalidArgument, "rotate: source and destination formats differ");
  const int channels = src.format.channels;
  // The fill as the format stores it.
  std::array<double, 4> background = fill;
  if (src.format.type != ChannelType::F32)
    for (double& v : background) v = std::nearbyint(std::clamp(v, 0.0, src.format.max_value()));
  const double turn = angle_degrees * kRotatePi / 180.0;
  const double cos_t = std::cos(turn), sin_t = std::sin(turn);
  const double src_centre_x = 0.5 * (src.width - 1), src_centre_y = 0.5 * (src.height - 1);
  const double dst_centre_x = 0.5 * (dst.width - 1), dst_centre_y = 0.5 * (dst.height - 1);
  const auto sample = [&](int x, int y, int c) {
    return (x >= 0 && x < src.width && y >= 0 && y < src.height) ? read_channel(src, x, y, c)
                                                                 : background[static_cast<std::size_t>(c)];
  };
  for (int y = 0; y < dst.height; ++y)
    for (int x = 0; x < dst.width; ++x) {
      // Turn the offset from dst's centre back (anticlockwise on screen) into src.
      const double u = x - dst_centre_x, v = y - dst_centre_y;
      const double sx = src_centre_x + u * cos_t + v * sin_t;
      const double sy = src_centre_y - u * sin_t + v * cos_t;
      const double left = std::floor(sx), top = std::floor(sy);
      const double fx = sx - left, fy = sy - top;
      const int ix = static_cast<int>(std::clamp(left, -2.0, static_cast<double>(src.width) + 1.0));
      const int iy = static_cast<int>(std::clamp(top, -2.0, static_cast<double>(src.height) + 1.0));
      for (int c = 0; c < channels; ++c) {
        const double top_row = (1.0 - fx) * sample(ix, iy, c) + fx * sample(ix + 1, iy, c);
        const double bottom_row = (1.0 - fx) * sample(ix, iy + 1, c) + fx * sample(ix + 1, iy + 1, c);
        write_channel(dst, x, y, c, (1.0 - fy) * top_row + fy * bottom_row);
      }
    }
}

}  // namespace gpufilter::reference
