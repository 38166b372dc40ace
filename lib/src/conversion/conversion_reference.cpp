// The conversions' reference: plain loops in double precision from the definitions in
// conversions.hpp.
#include <algorithm>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/reference.hpp"
#include "common/parallel_rows.hpp"
#include "common/pixel_access.hpp"
#include "throw_invalid.hpp"

namespace gpufilter::reference {
namespace {

void check_shapes(const ImageView& src, const ImageView& dst, PixelFormat expected_dst, const char* what) {
  validate_view(src, what);
  validate_view(dst, what);
  if (dst.width != src.width || dst.height != src.height || dst.format != expected_dst)
    throw_invalid(std::string(what) + ": the destination must be " + std::to_string(src.width) + "x" +
                  std::to_string(src.height) + " " + expected_dst.name());
}

// dst(x, y, c) = f(src pixel, c) for every channel c of dst.
template <class F>
void per_pixel(const ImageView& src, const ImageView& dst, F&& f) {
  parallel_rows(src.height, [&](int begin, int end) {
    double in[4];
    for (int y = begin; y < end; ++y)
      for (int x = 0; x < src.width; ++x) {
        for (int c = 0; c < src.format.channels; ++c) in[c] = read_channel(src, x, y, c);
        for (int c = 0; c < dst.format.channels; ++c) write_channel(dst, x, y, c, f(in, c));
      }
  });
}

}  // namespace

void gray(const ImageView& src, const ImageView& dst, GrayWeights weights) {
  if (src.format.channels < 3) throw_invalid("gray: the source needs 3 or 4 channels, got " + src.format.name());
  check_shapes(src, dst, PixelFormat{src.format.type, 1}, "gray");
  const double w[3] = {weights == GrayWeights::Bt601 ? 0.299 : 0.2126, weights == GrayWeights::Bt601 ? 0.587 : 0.7152,
                       weights == GrayWeights::Bt601 ? 0.114 : 0.0722};
  per_pixel(src, dst, [&](const double* in, int) { return w[0] * in[0] + w[1] * in[1] + w[2] * in[2]; });
}

void add_alpha(const ImageView& src, const ImageView& dst) {
  if (src.format.channels != 3) throw_invalid("add_alpha: the source needs 3 channels, got " + src.format.name());
  check_shapes(src, dst, PixelFormat{src.format.type, 4}, "add_alpha");
  const double opaque = src.format.max_value();
  per_pixel(src, dst, [&](const double* in, int c) { return c < 3 ? in[c] : opaque; });
}

void drop_alpha(const ImageView& src, const ImageView& dst) {
  if (src.format.channels != 4) throw_invalid("drop_alpha: the source needs 4 channels, got " + src.format.name());
  check_shapes(src, dst, PixelFormat{src.format.type, 3}, "drop_alpha");
  per_pixel(src, dst, [](const double* in, int c) { return in[c]; });
}

void swap_channels(const ImageView& src, const ImageView& dst, const ChannelOrder& order) {
  check_shapes(src, dst, src.format, "swap_channels");
  if (order.channels != src.format.channels)
    throw_invalid("swap_channels: the order is for " + std::to_string(order.channels) + " channels, the image has " +
                  std::to_string(src.format.channels));
  per_pixel(src, dst, [&](const double* in, int c) { return in[order.from[c]]; });
}

void convert_depth(const ImageView& src, const ImageView& dst) {
  check_shapes(src, dst, PixelFormat{dst.format.type, src.format.channels}, "convert");
  const double from = src.format.max_value(), to = dst.format.max_value();
  const bool clamp_input = src.format.type == ChannelType::F32 && dst.format.type != ChannelType::F32;
  per_pixel(src, dst, [&](const double* in, int c) {
    const double x = clamp_input ? std::clamp(in[c], 0.0, 1.0) : in[c];
    return from == to ? x : x * to / from;
  });
}

void to_planar(const ImageView& src, const PlanarView& dst) {
  validate_view(src, "planar");
  if (dst.channels != src.format.channels || dst.type != src.format.type || dst.width != src.width ||
      dst.height != src.height)
    throw_invalid("planar: the planes must match the source " + src.format.name());
  for (int c = 0; c < src.format.channels; ++c) {
    const ImageView plane = dst.plane(c);
    parallel_rows(src.height, [&](int begin, int end) {
      for (int y = begin; y < end; ++y)
        for (int x = 0; x < src.width; ++x) write_channel(plane, x, y, 0, read_channel(src, x, y, c));
    });
  }
}

void to_interleaved(const PlanarView& src, const ImageView& dst) {
  validate_view(dst, "interleaved");
  if (dst.format.channels != src.channels || dst.format.type != src.type || dst.width != src.width ||
      dst.height != src.height)
    throw_invalid("interleaved: the destination must match the planes");
  for (int c = 0; c < src.channels; ++c) {
    const ImageView plane = src.plane(c);
    parallel_rows(dst.height, [&](int begin, int end) {
      for (int y = begin; y < end; ++y)
        for (int x = 0; x < dst.width; ++x) write_channel(dst, x, y, c, read_channel(plane, x, y, 0));
    });
  }
}

}  // namespace gpufilter::reference
