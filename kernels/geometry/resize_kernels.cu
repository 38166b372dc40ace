// Resize: each output pixel is a weighted sum of source pixels around where its centre
// falls, (x + 0.5) * scale - 0.5 with scale = source size / output size (OpenCV's
// convention). nearest, linear, cubic and lanczos take a fixed number of taps per axis
// with the source's edge pixels repeated beyond it; area weighs every source pixel by
// how much of it the output pixel's footprint covers (an average when shrinking).
// A thread computes its taps and one output pixel, all channels at once, in float.
// Source positions are computed in double and only their fractions kept in float: at
// 8K a float position is 1e-3 pixel off, which would move results across rounding
// boundaries of 8-bit outputs.
#include <cstdint>

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "geometry/geometry_launch.hpp"

namespace gpufilter::kernels {
namespace {

template <int K>
struct AxisTaps {
  int index[K];
  float weight[K];
};

__device__ __forceinline__ int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

// The source pixel whose span holds the output pixel's centre, in exact integers:
// floor((d + 0.5) * n / out), so that ties never depend on float rounding.
struct NearestTaps {
  static constexpr int K = 1;
  __device__ static void taps(int d, double, int n, int out, AxisTaps<1>& t) {
    const long long i = ((2LL * d + 1) * n) / (2LL * out);
    t.index[0] = static_cast<int>(i < n ? i : n - 1);
    t.weight[0] = 1.0f;
  }
};

// The centre's position split into a whole source index and a fraction.
__device__ __forceinline__ int centre(int d, double scale, float& fraction) {
  const double f = (static_cast<double>(d) + 0.5) * scale - 0.5;
  const double whole = floor(f);
  fraction = static_cast<float>(f - whole);
  return static_cast<int>(whole);
}

struct LinearTaps {
  static constexpr int K = 2;
  __device__ static void taps(int d, double scale, int n, int, AxisTaps<2>& t) {
    float x;
    const int i = centre(d, scale, x);
    t.index[0] = clamp_index(i, n);
    t.index[1] = clamp_index(i + 1, n);
    t.weight[0] = 1.0f - x;
    t.weight[1] = x;
  }
};

// Keys' cubic with a = -0.75, as OpenCV's INTER_CUBIC.
struct CubicTaps {
  static constexpr int K = 4;
  __device__ static void taps(int d, double scale, int n, int, AxisTaps<4>& t) {
    constexpr float a = -0.75f;
    float x;
    const int i = centre(d, scale, x);
    const float x1 = x + 1.0f, y = 1.0f - x;
    t.weight[0] = ((a * x1 - 5.0f * a) * x1 + 8.0f * a) * x1 - 4.0f * a;
    t.weight[1] = ((a + 2.0f) * x - (a + 3.0f)) * x * x + 1.0f;
    t.weight[2] = ((a + 2.0f) * y - (a + 3.0f)) * y * y + 1.0f;
    t.weight[3] = 1.0f - t.weight[0] - t.weight[1] - t.weight[2];
#pragma unroll
    for (int k = 0; k < 4; ++k) t.index[k] = clamp_index(i - 1 + k, n);
  }
};

// Lanczos with 4 lobes over 8 taps, normalised to sum 1 (OpenCV's INTER_LANCZOS4).
struct LanczosTaps {
  static constexpr int K = 8;
  __device__ static void taps(int d, double scale, int n, int, AxisTaps<8>& t) {
    float x;
    const int i = centre(d, scale, x);
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const float distance = x + 3.0f - static_cast<float>(k);  // from tap i-3+k to the centre
      float w = 1.0f;
      if (fabsf(distance) > 1e-6f) {
        const float p = 3.14159265358979f * distance;
        w = sinpif(distance) * sinpif(0.25f * distance) / (0.25f * p * p);
      }
      t.weight[k] = w;
      t.index[k] = clamp_index(i - 3 + k, n);
      sum += w;
    }
    const float inverse = 1.0f / sum;
#pragma unroll
    for (int k = 0; k < 8; ++k) t.weight[k] *= inverse;
  }
};

template <class T, int C, class Taps>
__global__ void resize_taps_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, double scale_x, double scale_y) {
  constexpr int K = Taps::K;
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= dst.width) return;
  AxisTaps<K> tx;
  Taps::taps(x, scale_x, src.width, dst.width, tx);
  for (long long y = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; y < dst.height;
       y += static_cast<long long>(gridDim.y) * blockDim.y) {
    AxisTaps<K> ty;
    Taps::taps(static_cast<int>(y), scale_y, src.height, dst.height, ty);
    Accum<C> sum = zero_accum<C>();
#pragma unroll
    for (int j = 0; j < K; ++j) {
      Accum<C> row = zero_accum<C>();
#pragma unroll
      for (int i = 0; i < K; ++i) accumulate(row, tx.weight[i], src.at(tx.index[i], ty.index[j]));
      accumulate(sum, ty.weight[j], row);
    }
    dst.at(x, static_cast<int>(y)) = to_pixel<T, C>(sum);
  }
}

// The source pixels [first, last) that the footprint [a, b) meets, with a and b
// returned relative to `first` (small numbers, exact enough in float).
__device__ __forceinline__ void footprint(int d, double scale, int n, float& a, float& b, int& first, int& last) {
  const double start = static_cast<double>(d) * scale, end = static_cast<double>(d + 1) * scale;
  first = static_cast<int>(floor(start));
  last = static_cast<int>(ceil(end));
  if (first > n - 1) first = n - 1;
  if (last > n) last = n;
  if (last <= first) last = first + 1;
  a = static_cast<float>(start - first);
  b = static_cast<float>(end - first);
}

template <class T, int C>
__global__ void resize_area_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, double scale_x, double scale_y) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= dst.width) return;
  float ax, bx;
  int x0, x1;
  footprint(x, scale_x, src.width, ax, bx, x0, x1);
  for (long long y = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; y < dst.height;
       y += static_cast<long long>(gridDim.y) * blockDim.y) {
    float ay, by;
    int y0, y1;
    footprint(static_cast<int>(y), scale_y, src.height, ay, by, y0, y1);
    Accum<C> sum = zero_accum<C>();
    float total = 0.0f;
    for (int sy = y0; sy < y1; ++sy) {
      const float k = static_cast<float>(sy - y0);
      const float wy = fminf(by, k + 1.0f) - fmaxf(ay, k);
      Accum<C> row = zero_accum<C>();
      float row_total = 0.0f;
      for (int sx = x0; sx < x1; ++sx) {
        const float k = static_cast<float>(sx - x0);
        const float wx = fminf(bx, k + 1.0f) - fmaxf(ax, k);
        accumulate(row, wx, src.at(sx, sy));
        row_total += wx;
      }
      accumulate(sum, wy, row);
      total += wy * row_total;
    }
    const float inverse = 1.0f / total;
#pragma unroll
    for (int c = 0; c < C; ++c) sum.c[c] *= inverse;
    dst.at(x, static_cast<int>(y)) = to_pixel<T, C>(sum);
  }
}

constexpr int kResizeBlockX = 32, kResizeBlockY = 8;

template <class Kernel, class... Args>
void launch_resize(Kernel kernel, const ImageView& dst, const char* name, const ExecContext& ctx, Args... args) {
  const dim3 block(kResizeBlockX, kResizeBlockY);
  const dim3 grid(grid_x(blocks_for(dst.width, kResizeBlockX), name), grid_y(blocks_for(dst.height, kResizeBlockY)));
  kernel<<<grid, block, 0, ctx.stream>>>(args...);
}

}  // namespace

void launch_resize(const ImageView& src, const ImageView& dst, ResizeFilter filter, const ExecContext& ctx) {
  const double scale_x = static_cast<double>(src.width) / dst.width;
  const double scale_y = static_cast<double>(src.height) / dst.height;
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    const auto s = pitched<T, C>(src);
    const auto d = pitched<T, C>(dst);
    switch (filter) {
      case ResizeFilter::Nearest:
        launch_resize(resize_taps_kernel<T, C, NearestTaps>, dst, "resize_kernel", ctx, s, d, scale_x, scale_y);
        break;
      case ResizeFilter::Linear:
        launch_resize(resize_taps_kernel<T, C, LinearTaps>, dst, "resize_kernel", ctx, s, d, scale_x, scale_y);
        break;
      case ResizeFilter::Cubic:
        launch_resize(resize_taps_kernel<T, C, CubicTaps>, dst, "resize_kernel", ctx, s, d, scale_x, scale_y);
        break;
      case ResizeFilter::Lanczos:
        launch_resize(resize_taps_kernel<T, C, LanczosTaps>, dst, "resize_kernel", ctx, s, d, scale_x, scale_y);
        break;
      case ResizeFilter::Area:
        launch_resize(resize_area_kernel<T, C>, dst, "resize_area_kernel", ctx, s, d, scale_x, scale_y);
        break;
    }
  });
  check_launch("resize_kernel", ctx);
}

}  // namespace gpufilter::kernels
