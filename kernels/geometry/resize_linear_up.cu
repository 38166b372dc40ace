// Linear resize when the width does not shrink (enlarging, or the same width): the
// same pixel-centre convention and taps as resize_kernels.cu's linear filter
// ((d + 0.5) * scale - 0.5, edge pixels repeated), computed in two passes per output
// row so that each output pixel costs a few float operations instead of its own taps:
//  1. a warp owns a run of 32 * P output pixels of one row; it loads the source
//     columns that run needs (at most 32 * P + 1 when the width does not shrink) from
//     the row's two source rows, coalesced, blends them vertically in float and keeps
//     them in shared memory, one plane per channel;
//  2. each lane makes P adjacent output pixels from that window (two taps each) and
//     stores them as 16-byte words (48 for 3-channel pixels) where the destination
//     row allows, pixel by pixel otherwise.
// Tap positions are computed in double once per thread (columns) or per row (rows),
// as the direct kernel does, and only their fractions kept in float; a width of
// exactly twice the source's has fixed column taps and its own instantiation. At a
// ratio of 2 every weight is 1/4 or 3/4 and every sum of 8- and 16-bit values is exact
// in float, so ties round as the reference rounds them.
#include <cstdint>

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/pixel.cuh"
#include "geometry/geometry_launch.hpp"
#include "geometry/geometry_tuning.hpp"

namespace gpufilter::kernels {
namespace {

// Output pixels per lane: 16 bytes of output, 48 for 3-channel pixels (3 words).
template <class T, int C>
constexpr int lane_pixels() {
  constexpr int bytes = static_cast<int>(sizeof(T)) * C;
  return (C == 3 ? 48 : 16) / bytes;
}

// A lane's P output pixels as whole 16-byte words.
template <class T, int C, int P>
union OutputWords {
  static constexpr int kWords = static_cast<int>(sizeof(Pixel<T, C>)) * P / 16;
  uint4 word[kWords];
  Pixel<T, C> pixel[P];
};

// The linear filter's left tap for output coordinate d, floor((d + 0.5) * scale - 0.5)
// (unclamped: -1 at the first pixels when enlarging), and its fraction.
struct LinearTap {
  int left;
  float fraction;
};
__device__ __forceinline__ LinearTap linear_tap(int d, double scale) {
  const double f = (static_cast<double>(d) + 0.5) * scale - 0.5;
  const double whole = floor(f);
  return LinearTap{static_cast<int>(whole), static_cast<float>(f - whole)};
}

__device__ __forceinline__ int clamp_to(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

// The window's shared index of its column j: one word of padding every 32 keeps lanes
// reading columns 2, 4 or 8 apart (ratio 2 with 4, 8 or 16 pixels a lane) on distinct
// banks.
__device__ __forceinline__ int padded(int j) { return j + (j >> 5); }

// kTwice: the output is exactly twice as wide (and P even): output 2m + 1 blends
// source columns m and m + 1 as 3/4, 1/4 and output 2m columns m - 1 and m as 1/4, 3/4,
// which is what the general taps compute there (the positions are exact in double), so
// each lane reads its P / 2 + 2 columns once and needs no per-pixel taps.
template <class T, int C, bool kTwice>
__global__ void __launch_bounds__(32 * GeometryTuning::kUpWarps)
    resize_linear_up_kernel(PitchedView<T, C> src, PitchedView<T, C> dst, double scale_x, double scale_y) {
  constexpr int P = lane_pixels<T, C>();
  static_assert(!kTwice || P % 2 == 0, "the doubling path pairs output pixels");
  constexpr int kRun = 32 * P;       // output pixels of a warp
  constexpr int kWindow = kRun + 2;  // source columns it may need (kRun + 1 at most)
  constexpr int kPlane = kWindow + kWindow / 32 + 1;
  __shared__ float window[GeometryTuning::kUpWarps][C][kPlane];
  float(*plane)[kPlane] = window[threadIdx.y];

  const int lane = static_cast<int>(threadIdx.x);
  const int run_start = static_cast<int>(blockIdx.x) * kRun;  // < dst.width (the grid's size)
  const int run_end = min(run_start + kRun, dst.width);
  // Window column j holds source column clamp(base + j): the run's taps are base ..
  // (last pixel's left tap) + 1, at most kRun + 1 columns when the width does not shrink.
  const int base = linear_tap(run_start, scale_x).left;
  const int count = linear_tap(run_end - 1, scale_x).left + 2 - base;

  // This lane's output pixels and their left taps in the window (right = left + 1).
  const int x0 = run_start + lane * P;
  int left[kTwice ? 1 : P];
  float fraction[kTwice ? 1 : P];
  if constexpr (!kTwice) {
#pragma unroll
    for (int k = 0; k < P; ++k) {
      const LinearTap t = linear_tap(min(x0 + k, dst.width - 1), scale_x);
      left[k] = t.left - base;
      fraction[k] = t.fraction;
    }
  }

  // Rows are uniform across the warp (blockDim.x is 32), so the warp stays together.
  for (long long yy = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; yy < dst.height;
       yy += static_cast<long long>(gridDim.y) * blockDim.y) {
    const int y = static_cast<int>(yy);
    const LinearTap ty = linear_tap(y, scale_y);
    const int top = clamp_to(ty.left, src.height), bottom = clamp_to(ty.left + 1, src.height);
    const float top_weight = 1.0f - ty.fraction, bottom_weight = ty.fraction;
    __syncwarp();  // the previous row's window is read
    for (int j = lane; j < count; j += 32) {
      const int column = clamp_to(base + j, src.width);
      const Accum<C> a = to_accum(src.at(column, top));
      const Accum<C> b = to_accum(src.at(column, bottom));
#pragma unroll
      for (int c = 0; c < C; ++c) plane[c][padded(j)] = fmaf(bottom_weight, b.c[c], top_weight * a.c[c]);
    }
    __syncwarp();
    if (x0 >= dst.width) continue;
    OutputWords<T, C, P> out;
    if constexpr (kTwice) {
      // Columns x0 / 2 - 1 .. x0 / 2 + P / 2 of the source; lanes past the row's end
      // read window columns nobody wrote and store nothing.
      const int first = x0 / 2 - 1 - base;
      float v[P / 2 + 2][C];
#pragma unroll
      for (int j = 0; j < P / 2 + 2; ++j)
#pragma unroll
        for (int c = 0; c < C; ++c) v[j][c] = plane[c][padded(first + j)];
#pragma unroll
      for (int q = 0; q < P / 2; ++q) {
        Accum<C> even, odd;
#pragma unroll
        for (int c = 0; c < C; ++c) {
          even.c[c] = fmaf(0.75f, v[q + 1][c], 0.25f * v[q][c]);
          odd.c[c] = fmaf(0.25f, v[q + 2][c], 0.75f * v[q + 1][c]);
        }
        out.pixel[2 * q] = to_pixel<T, C, false>(even);
        out.pixel[2 * q + 1] = to_pixel<T, C, false>(odd);
      }
    } else {
      // Adjacent output pixels share taps when enlarging: a tap equal to one of the
      // previous pixel's is taken from registers.
      float a[C] = {}, b[C] = {};
#pragma unroll
      for (int k = 0; k < P; ++k) {
        const int l = left[k], previous = left[k > 0 ? k - 1 : 0];
#pragma unroll
        for (int c = 0; c < C; ++c) {
          if (k > 0 && l == previous) continue;  // both taps as before
          if (k > 0 && l == previous + 1) {
            a[c] = b[c];
          } else {
            a[c] = plane[c][padded(l)];
          }
          b[c] = plane[c][padded(l + 1)];
        }
        const float w1 = fraction[k], w0 = 1.0f - w1;
        Accum<C> sum;
#pragma unroll
        for (int c = 0; c < C; ++c) sum.c[c] = fmaf(w1, b[c], w0 * a[c]);
        // A convex blend of in-range values stays in range: no clamp.
        out.pixel[k] = to_pixel<T, C, false>(sum);
      }
    }
    Pixel<T, C>* row = &dst.at(x0, y);
    if (x0 + P <= dst.width && reinterpret_cast<std::uintptr_t>(row) % 16 == 0) {
#pragma unroll
      for (int w = 0; w < OutputWords<T, C, P>::kWords; ++w) reinterpret_cast<uint4*>(row)[w] = out.word[w];
    } else {
      const int n = min(P, dst.width - x0);
#pragma unroll
      for (int k = 0; k < P; ++k)
        if (k < n) row[k] = out.pixel[k];
    }
  }
}

template <class T, int C, bool kTwice>
void launch_up(const ImageView& src, const ImageView& dst, double scale_x, double scale_y, const ExecContext& ctx) {
  constexpr int kRun = 32 * lane_pixels<T, C>();
  constexpr int W = GeometryTuning::kUpWarps;
  const dim3 grid(grid_x(blocks_for(dst.width, kRun), "resize_linear_up_kernel"),
                  grid_y(blocks_for(dst.height, W * GeometryTuning::kUpRowsPerWarp)));
  resize_linear_up_kernel<T, C, kTwice>
      <<<grid, dim3(32, W), 0, ctx.stream>>>(pitched<T, C>(src), pitched<T, C>(dst), scale_x, scale_y);
}

}  // namespace

bool launch_resize_linear_up(const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  if (dst.width < src.width) return false;
  const double scale_x = static_cast<double>(src.width) / dst.width;
  const double scale_y = static_cast<double>(src.height) / dst.height;
  const bool twice = dst.width == 2LL * src.width;
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channels)::value;
    if constexpr (lane_pixels<T, C>() % 2 == 0) {
      if (twice) {
        launch_up<T, C, true>(src, dst, scale_x, scale_y, ctx);
        return;
      }
    }
    launch_up<T, C, false>(src, dst, scale_x, scale_y, ctx);
  });
  check_launch("resize_linear_up_kernel", ctx);
  return true;
}

}  // namespace gpufilter::kernels
