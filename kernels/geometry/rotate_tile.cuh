#pragma once
// What the tiled rotation kernels share: where a thread's pixels lie, where they fall
// in the source, and the bilinear blend with the fill colour for taps outside it.
//
// A block is kRotateWarpsX warps across; a warp's lanes are kRotateLanesX across and
// 32 / kRotateLanesX down, each lane making PX adjacent pixels of kRotateSteps rows a
// warp-height apart. The source position of the thread's first pixel is computed in
// double (a float position is 1e-4 pixel off at 2000 pixels) and kept in 32.32 fixed
// point; the others step from it by exact integer additions of the map's steps (each
// rounded to 2^-32 once), so a position is never further off than a dozen 2^-32. The
// fraction goes to float through its top 23 bits (1.2e-7 off at most, about what
// converting a double fraction to float costs).
#include <cmath>
#include <cstdint>

#include "common/pixel.cuh"
#include "geometry/geometry_tuning.hpp"

namespace gpufilter::kernels {

// src(sx, sy) for dst(x, y): sx = m[0]*x + m[1]*y + m[2], sy = m[3]*x + m[4]*y + m[5];
// step_*: the same steps in 32.32 fixed point, along a row (one pixel) and down a
// warp-height (RotateTile::kLanesY rows).
struct RotateMap {
  double m[6];
  long long row_step_x, row_step_y;
  long long down_step_x, down_step_y;
};

struct RotateTile {
  static constexpr int kLanesX = GeometryTuning::kRotateLanesX;
  static constexpr int kLanesY = 32 / kLanesX;
  static constexpr int kWarpsX = GeometryTuning::kRotateWarpsX;
  static constexpr int kSteps = GeometryTuning::kRotateSteps;
  static constexpr int kRows = kLanesY * kSteps;  // output rows of a block
};

constexpr double kFixedOne = 4294967296.0;  // 2^32

// The map with its fixed-point steps (host side).
inline RotateMap rotate_map(const double inverse_map[6]) {
  RotateMap map{};
  for (int i = 0; i < 6; ++i) map.m[i] = inverse_map[i];
  map.row_step_x = std::llround(inverse_map[0] * kFixedOne);
  map.row_step_y = std::llround(inverse_map[3] * kFixedOne);
  map.down_step_x = std::llround(inverse_map[1] * RotateTile::kLanesY * kFixedOne);
  map.down_step_y = std::llround(inverse_map[4] * RotateTile::kLanesY * kFixedOne);
  return map;
}

// The thread's first pixel (x, y) and its source position in 32.32 fixed point.
struct RotateStart {
  int x, y;
  long long fixed_x, fixed_y;
};

// A position clamped to +-2^30 pixels (far outside any image, where only the fill is
// read; a dozen steps more stay far from overflowing) in fixed point.
__device__ __forceinline__ long long to_fixed(double position) {
  return __double2ll_rn(fmin(fmax(position, -1073741824.0), 1073741824.0) * kFixedOne);
}

template <int PX>
__device__ __forceinline__ RotateStart rotate_start(const RotateMap& map) {
  const int lane = static_cast<int>(threadIdx.x);
  const int column = static_cast<int>(threadIdx.y) * RotateTile::kLanesX + lane % RotateTile::kLanesX;
  RotateStart s;
  s.x = (static_cast<int>(blockIdx.x) * RotateTile::kWarpsX * RotateTile::kLanesX + column) * PX;
  s.y = static_cast<int>(blockIdx.y) * RotateTile::kRows + lane / RotateTile::kLanesX;
  const double fx = static_cast<double>(s.x), fy = static_cast<double>(s.y);
  s.fixed_x = to_fixed(fma(map.m[0], fx, fma(map.m[1], fy, map.m[2])));
  s.fixed_y = to_fixed(fma(map.m[3], fx, fma(map.m[4], fy, map.m[5])));
  return s;
}

// The fixed-point position of the thread's pixel k of step s.
__device__ __forceinline__ long long step_position(long long start, long long row_step, long long down_step, int k,
                                                   int s) {
  return start + static_cast<long long>(k) * row_step + static_cast<long long>(s) * down_step;
}

// The four taps of one output pixel: top-left corner (ix, iy) and the weights of the
// taps inside the source (outside ones weigh on the fill instead).
struct BilinearTaps {
  int ix, iy;
  float w00, w01, w10, w11;  // (row, column)
  float outside;             // the weight of the taps outside the source
};

// The whole part (floor, also below zero) and the fraction's top 23 bits as a float.
__device__ __forceinline__ int fixed_whole(long long p) { return static_cast<int>(p >> 32); }
__device__ __forceinline__ float fixed_fraction(long long p) {
  const unsigned low = static_cast<unsigned>(static_cast<unsigned long long>(p) & 0xffffffffu);
  return __uint_as_float(0x3F800000u | (low >> 9)) - 1.0f;
}

__device__ __forceinline__ BilinearTaps bilinear_taps(long long px, long long py, int width, int height) {
  BilinearTaps t;
  t.ix = fixed_whole(px);
  t.iy = fixed_whole(py);
  const float ax = fixed_fraction(px), ay = fixed_fraction(py);
  const float left = (t.ix >= 0 && t.ix < width) ? 1.0f - ax : 0.0f;
  const float right = (t.ix + 1 >= 0 && t.ix + 1 < width) ? ax : 0.0f;
  const float top = (t.iy >= 0 && t.iy < height) ? 1.0f - ay : 0.0f;
  const float bottom = (t.iy + 1 >= 0 && t.iy + 1 < height) ? ay : 0.0f;
  t.w00 = top * left;
  t.w01 = top * right;
  t.w10 = bottom * left;
  t.w11 = bottom * right;
  const bool inside = t.ix >= 0 && t.ix + 1 < width && t.iy >= 0 && t.iy + 1 < height;
  t.outside = inside ? 0.0f : 1.0f - (top + bottom) * (left + right);
  return t;
}

// Where a pixel's four taps lie: all inside the source (no clamps, no fill), all outside
// (the fill alone), or across its edge (bilinear_taps and blend with the fill). The
// first two are shortcuts of the third with identical results: inside, `outside` is 0
// and the clamps change nothing; outside, every weight is 0 and `outside` is 1.
enum class TapPlace { Inside, Outside, Edge };

__device__ __forceinline__ TapPlace tap_place(long long px, long long py, int width, int height) {
  const int ix = fixed_whole(px), iy = fixed_whole(py);
  if (ix >= 0 && ix + 1 < width && iy >= 0 && iy + 1 < height) return TapPlace::Inside;
  if (ix + 1 < 0 || ix >= width || iy + 1 < 0 || iy >= height) return TapPlace::Outside;
  return TapPlace::Edge;
}

// The bilinear value of a pixel whose four taps are inside the source: the arithmetic of
// bilinear_taps and blend with the edge terms dropped (the same float operations in the
// same order, so the same result bit for bit).
template <class T, int C>
__device__ __forceinline__ Accum<C> blend_inside(const PitchedView<T, C>& src, long long px, long long py) {
  const int ix = fixed_whole(px), iy = fixed_whole(py);
  const float ax = fixed_fraction(px), ay = fixed_fraction(py);
  const float left = 1.0f - ax, top = 1.0f - ay;
  const float w00 = top * left, w01 = top * ax, w10 = ay * left, w11 = ay * ax;
  const Pixel<T, C>* upper = &src.at(ix, iy);
  const Pixel<T, C>* lower = &src.at(ix, iy + 1);
  const Accum<C> p00 = to_accum(upper[0]), p01 = to_accum(upper[1]);
  const Accum<C> p10 = to_accum(lower[0]), p11 = to_accum(lower[1]);
  Accum<C> sum;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    float v = w00 * p00.c[c];
    v = fmaf(w01, p01.c[c], v);
    v = fmaf(w10, p10.c[c], v);
    sum.c[c] = fmaf(w11, p11.c[c], v);
  }
  return sum;
}

// (w00 p00 + w01 p01 + w10 p10 + w11 p11) + outside * fill, channel by channel.
template <int C>
__device__ __forceinline__ Accum<C> blend(const BilinearTaps& t, const Accum<C>& p00, const Accum<C>& p01,
                                          const Accum<C>& p10, const Accum<C>& p11, const Accum<C>& fill) {
  Accum<C> sum;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    float v = t.outside * fill.c[c];
    v = fmaf(t.w00, p00.c[c], v);
    v = fmaf(t.w01, p01.c[c], v);
    v = fmaf(t.w10, p10.c[c], v);
    sum.c[c] = fmaf(t.w11, p11.c[c], v);
  }
  return sum;
}

}  // namespace gpufilter::kernels
