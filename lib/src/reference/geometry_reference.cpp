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
#include "reference/pixel_access.hpp"

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
// Separable weights: for each output coordinate along an axis, the source coordinates
// it reads and their weights, from each filter's definition as a function of distance.

namespace gpufilter::reference {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct Tap {
  int index;
  double weight;
};

int clamp_to(int i, int n) { return std::min(std::max(i, 0), n - 1); }

// Keys' cubic convolution kernel with a = -0.75.
double keys(double t) {
  constexpr double a = -0.75;
  t = std::fabs(t);
  if (t <= 1.0) return ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0;
  if (t < 2.0) return ((a * t - 5.0 * a) * t + 8.0 * a) * t - 4.0 * a;
  return 0.0;
}

double sinc(double t) { return t == 0.0 ? 1.0 : std::sin(kPi * t) / (kPi * t); }
double lanczos4(double t) { return std::fabs(t) < 4.0 ? sinc(t) * sinc(t / 4.0) : 0.0; }

// The output coordinate d's taps over a source axis of n pixels resized to `out`.
std::vector<Tap> axis_taps(int d, int n, int out, ResizeFilter filter) {
  const double scale = static_cast<double>(n) / out;
  std::vector<Tap> taps;
  if (filter == ResizeFilter::Nearest) {
    // The source pixel whose span [i, i+1) holds the centre (d + 0.5) * scale.
    const long long i = ((2LL * d + 1) * n) / (2LL * out);
    taps.push_back({static_cast<int>(std::min<long long>(i, n - 1)), 1.0});
    return taps;
  }
  if (filter == ResizeFilter::Area) {
    // The footprint [d, d+1) * scale, each source pixel weighed by the length it covers.
    const double a = d * scale, b = (d + 1) * scale;
    for (int i = static_cast<int>(std::floor(a)); i < n && i < b; ++i) {
      const double covered = std::min(b, i + 1.0) - std::max(a, static_cast<double>(i));
      if (covered > 0.0) taps.push_back({i, covered / (b - a)});
    }
    return taps;
  }
  const double centre = (d + 0.5) * scale - 0.5;
  const int base = static_cast<int>(std::floor(centre));
  const auto add = [&](int first, int last, double (*kernel)(double)) {
    double sum = 0.0;
    for (int i = first; i <= last; ++i) {
      taps.push_back({clamp_to(i, n), kernel(centre - i)});
      sum += taps.back().weight;
    }
    for (Tap& t : taps) t.weight /= sum;
  };
  switch (filter) {
    case ResizeFilter::Linear: add(base, base + 1, [](double t) { return std::max(0.0, 1.0 - std::fabs(t)); }); break;
    case ResizeFilter::Cubic: add(base - 1, base + 2, keys); break;
    default: add(base - 3, base + 4, lanczos4); break;
  }
  return taps;
}

}  // namespace

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

void rotate(const ImageView& src, const ImageView& dst, double angle_degrees, const std::array<double, 4>& fill) {
  validate_view(src, "source");
  validate_view(dst, "destination");
  if (src.format != dst.format) throw Error(ErrorCode::InvalidArgument, "rotate: source and destination formats differ");
  const int channels = src.format.channels;
  // The fill as the format stores it.
  std::array<double, 4> background = fill;
  if (src.format.type != ChannelType::F32)
    for (double& v : background) v = std::nearbyint(std::clamp(v, 0.0, src.format.max_value()));
  const double turn = angle_degrees * kPi / 180.0;
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
