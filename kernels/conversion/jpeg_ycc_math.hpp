#pragma once
// A JPEG decoder's last step the way libjpeg (and libjpeg-turbo, which OpenCV and Pillow
// use) does it by default: "fancy" chroma upsampling, a triangle filter between the
// chroma samples that cover a pixel (jdsample.c), and the integer YCbCr -> RGB of its
// jdcolor.c (16 fraction bits). Plain C++ for the GPU kernel and the CPU path alike; the
// CPU tests hold it against libjpeg's own output for the same planes.
#include <cstddef>
#include <cstdint>

#include "../common/host_device.hpp"  // relative: the library's CPU path includes it too

namespace gpufilter::kernels {

// A 1-channel 8-bit plane: `width` x `height` samples, rows `pitch` bytes apart.
struct YccPlane {
  const std::uint8_t* data = nullptr;
  std::size_t pitch = 0;
  int width = 0;
  int height = 0;
};

// The chroma sample of `plane` at (x, y) (clamped into the plane: libjpeg repeats the edge
// rows as the context of the first and last rows).
GPUFILTER_HD int chroma_at(const YccPlane& plane, int x, int y) {
  x = x < 0 ? 0 : (x >= plane.width ? plane.width - 1 : x);
  y = y < 0 ? 0 : (y >= plane.height ? plane.height - 1 : y);
  return plane.data[static_cast<std::size_t>(y) * plane.pitch + static_cast<std::size_t>(x)];
}

// The upsampled chroma of luma pixel (x, y) for `h` x `v` luma samples a chroma sample
// (1 or 2 each). libjpeg takes the triangle filter where the plane is more than 2 samples
// wide (h = 2) and replicates samples otherwise (h2v1_upsample, h2v2_upsample).
GPUFILTER_HD int upsampled_chroma(const YccPlane& plane, int h, int v, int x, int y) {
  const int cx = x / h;
  const int cy = y / v;
  if (h == 2 && plane.width <= 2) return chroma_at(plane, cx, cy);
  // Vertically (v = 2): 3 parts of the own row, 1 of the nearer neighbour row.
  const int near_row = v == 2 ? (y % 2 == 0 ? cy - 1 : cy + 1) : cy;
  const auto column_sum = [&](int column) {
    return v == 2 ? 3 * chroma_at(plane, column, cy) + chroma_at(plane, column, near_row) : chroma_at(plane, column, cy);
  };
  if (h == 1) {
    // h1v2_fancy_upsample: upper output rows round with 1, lower with 2.
    return v == 2 ? (column_sum(cx) + (y % 2 == 0 ? 1 : 2)) >> 2 : column_sum(cx);
  }
  const bool even = x % 2 == 0;
  const int last = plane.width - 1;
  if (v == 2) {
    // h2v2_fancy_upsample: the column sums' triangle, in sixteenths.
    const int own = column_sum(cx);
    if (even) return cx == 0 ? (own * 4 + 8) >> 4 : (own * 3 + column_sum(cx - 1) + 8) >> 4;
    return cx == last ? (own * 4 + 7) >> 4 : (own * 3 + column_sum(cx + 1) + 7) >> 4;
  }
  // h2v1_fancy_upsample: in quarters; the outermost pixels take their sample as it is.
  const int own = column_sum(cx);
  if (even) return cx == 0 ? own : (own * 3 + column_sum(cx - 1) + 1) >> 2;
  return cx == last ? own : (own * 3 + column_sum(cx + 1) + 2) >> 2;
}

// jdcolor.c's ycc_rgb_convert: tables of round(k * 2^16) factors; red and blue round
// each product, green sums two unrounded products and a half before the shift.
struct RgbBytes {
  std::uint8_t r, g, b;
};
GPUFILTER_HD std::uint8_t clamp_byte(int value) {
  return static_cast<std::uint8_t>(value < 0 ? 0 : (value > 255 ? 255 : value));
}
GPUFILTER_HD RgbBytes ycc_to_rgb(int y, int cb, int cr) {
  constexpr int kScaleBits = 16;
  constexpr std::int32_t kHalf = 1 << (kScaleBits - 1);
  constexpr std::int32_t kCrToR = 91881;   // FIX(1.40200)
  constexpr std::int32_t kCbToB = 116130;  // FIX(1.77200)
  constexpr std::int32_t kCrToG = 46802;   // FIX(0.71414)
  constexpr std::int32_t kCbToG = 22554;   // FIX(0.34414)
  const std::int32_t cr_centred = cr - 128;
  const std::int32_t cb_centred = cb - 128;
  // >> on negative values: an arithmetic shift, as libjpeg's RIGHT_SHIFT.
  const int red = y + ((kCrToR * cr_centred + kHalf) >> kScaleBits);
  const int blue = y + ((kCbToB * cb_centred + kHalf) >> kScaleBits);
  const int green = y + ((-kCbToG * cb_centred + kHalf - kCrToG * cr_centred) >> kScaleBits);
  return {clamp_byte(red), clamp_byte(green), clamp_byte(blue)};
}

}  // namespace gpufilter::kernels
