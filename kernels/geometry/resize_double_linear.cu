// Linear enlargement by exactly 2 in both axes of 8-bit images, in integers. With
// pixel-centre alignment every output sample is (9 a + 3 b + 3 c + d) / 16 of its 2x2
// source neighbours (a the nearest; edge pixels repeated): output column 2m blends
// source columns m and m - 1 as 3/4 and 1/4, column 2m + 1 columns m and m + 1, and the
// same for rows. The sums are exact, so rounding them to nearest with ties to even
// gives what the reference (and the float kernels, whose sums are exact too) give.
//
// Two samples share a 32-bit register as 16-bit lanes, each held times 16 (bits 4..11
// of its lane): a source row's horizontal sums 3 x + y are at most 16 320 a lane and
// the 2x2 sum 3 h + h' at most 65 280, so no lane carries into the next, and the
// rounded value lands on a byte of its lane (one byte permute packs the output).
//
// A thread owns a group of 8 source bytes (2 RGBA pixels or 8 gray ones) and walks down
// a strip of source rows: each row is loaded and blended horizontally once and serves
// two output rows (2r from rows r and r - 1, 2r + 1 from rows r and r + 1), the
// previous row's sums kept in registers. Groups of a warp are adjacent, so its loads
// (8 bytes a lane) and stores (16 bytes a lane, 4 output words) are contiguous. Views
// whose rows do not start at 8-byte (source) or 16-byte (destination) boundaries, and
// the row's last, partial group, go byte by byte.
#include <cstdint>

#include "common/launch.cuh"
#include "geometry/geometry_launch.hpp"
#include "geometry/geometry_tuning.hpp"

namespace gpufilter::kernels {
namespace {

constexpr int kGroupBytes = 8;  // source bytes of a group; 16 output bytes a row

// Bytes 0 and 2 (even_bytes) or 1 and 3 (odd_bytes) of a word as two 16-bit lanes,
// each value times 16.
__device__ __forceinline__ unsigned even_bytes(unsigned w) { return (w << 4) & 0x0FF00FF0u; }
__device__ __forceinline__ unsigned odd_bytes(unsigned w) { return (w >> 4) & 0x0FF00FF0u; }

// A group's source bytes in one row: `word` its 8 bytes, `left` and `right` the pixels
// beside it (clamped to the row), as a word (4 channels) or a byte (1 channel).
struct SourceGroup {
  unsigned word[2];
  unsigned left, right;
};

// A source row's horizontal sums for a group, 3 x + y per lane (times 16), in the
// order pack_row reads them.
struct RowSums {
  unsigned h[8];
};

// Reads a group of row `row`: pixels x0 .. x0 + 8 / C - 1 and their neighbours, each
// index clamped to [0, width - 1] (so the values past a partial group's end repeat
// the last pixel, as the edge rule wants for its right neighbour). `words`: the group
// is whole and the row starts at an 8-byte boundary.
template <int C>
__device__ __forceinline__ SourceGroup load_group(const unsigned char* row, int x0, int width, bool words) {
  constexpr int G = kGroupBytes / C;
  SourceGroup s;
  const int left = x0 > 0 ? x0 - 1 : 0;
  const int right = x0 + G < width ? x0 + G : width - 1;
  if (words) {
    const uint2 w = *reinterpret_cast<const uint2*>(row + static_cast<std::size_t>(x0) * C);
    s.word[0] = w.x;
    s.word[1] = w.y;
    if constexpr (C == 4) {
      s.left = *reinterpret_cast<const unsigned*>(row + static_cast<std::size_t>(left) * 4);
      s.right = *reinterpret_cast<const unsigned*>(row + static_cast<std::size_t>(right) * 4);
    } else {
      s.left = row[left];
      s.right = row[right];
    }
    return s;
  }
  s.word[0] = s.word[1] = 0u;
#pragma unroll
  for (int i = 0; i < kGroupBytes; ++i) {
    const int x = min(x0 + i / C, width - 1);
    s.word[i / 4] |= static_cast<unsigned>(row[static_cast<std::size_t>(x) * C + i % C]) << (8 * (i % 4));
  }
  s.left = s.right = 0u;
#pragma unroll
  for (int c = 0; c < C; ++c) {
    s.left |= static_cast<unsigned>(row[static_cast<std::size_t>(left) * C + c]) << (8 * c);
    s.right |= static_cast<unsigned>(row[static_cast<std::size_t>(right) * C + c]) << (8 * c);
  }
  return s;
}

// Output pixel 2m of a source pixel x with neighbours l and r is 3 x + l, pixel
// 2m + 1 is 3 x + r (per channel, before the vertical blend).
template <int C>
__device__ __forceinline__ RowSums horizontal(const SourceGroup& s) {
  RowSums out;
  if constexpr (C == 4) {
    // h[2k], h[2k + 1]: output pixel k's channels 0, 2 and 1, 3.
    const unsigned p[4] = {s.left, s.word[0], s.word[1], s.right};
#pragma unroll
    for (int m = 0; m < 2; ++m) {
      const unsigned x_even = even_bytes(p[m + 1]), x_odd = odd_bytes(p[m + 1]);
      out.h[4 * m + 0] = 3u * x_even + even_bytes(p[m]);
      out.h[4 * m + 1] = 3u * x_odd + odd_bytes(p[m]);
      out.h[4 * m + 2] = 3u * x_even + even_bytes(p[m + 2]);
      out.h[4 * m + 3] = 3u * x_odd + odd_bytes(p[m + 2]);
    }
  } else {
    // Source word k holds bytes b0..b3 (of the group's 4k..4k + 3): lo = (b0, b2),
    // hi = (b1, b3). Output bytes 2i and 2i + 1 are e_i = 3 b_i + b_{i-1} and
    // o_i = 3 b_i + b_{i+1}; h[4k..4k + 3] = (e0, e2), (o0, o2), (e1, e3), (o1, o3).
    const unsigned lo[2] = {even_bytes(s.word[0]), even_bytes(s.word[1])};
    const unsigned hi[2] = {odd_bytes(s.word[0]), odd_bytes(s.word[1])};
    const unsigned hi_before = s.left << 20;  // the left byte in the upper lane
    const unsigned lo_after = s.right << 4;   // the right byte in the lower lane
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      // (b_{-1}, b1): upper lane of the previous hi, lower lane of this one.
      const unsigned before = __funnelshift_l(k == 0 ? hi_before : hi[0], hi[k], 16);
      // (b2, b4): upper lane of this lo, lower lane of the next one.
      const unsigned after = __funnelshift_r(lo[k], k == 1 ? lo_after : lo[1], 16);
      out.h[4 * k + 0] = 3u * lo[k] + before;
      out.h[4 * k + 1] = 3u * lo[k] + hi[k];
      out.h[4 * k + 2] = 3u * hi[k] + lo[k];
      out.h[4 * k + 3] = 3u * hi[k] + after;
    }
  }
  return out;
}

// 16 (9 a + 3 b + 3 c + d) = 3 near + far per lane, rounded to nearest with ties to
// even: the result is byte 1 of each lane (bits 8..15 and 24..31). Adding 16 * 7 and
// 16 * (bit 4 of the sum / 16, its quotient's parity) then truncating is round half
// to even; at most 65 408 a lane, so no carry crosses lanes.
__device__ __forceinline__ unsigned blend_round(unsigned near, unsigned far) {
  const unsigned s = 3u * near + far;
  return s + 0x00700070u + ((s >> 4) & 0x00100010u);
}

// The 16 output bytes of an output row from the nearer source row's sums and the
// farther one's.
template <int C>
__device__ __forceinline__ uint4 pack_row(const RowSums& near, const RowSums& far) {
  unsigned r[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) r[i] = blend_round(near.h[i], far.h[i]);
  unsigned out[4];
  if constexpr (C == 4) {
#pragma unroll
    for (int k = 0; k < 4; ++k) out[k] = __byte_perm(r[2 * k], r[2 * k + 1], 0x7351);  // c0 c1 c2 c3
  } else {
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const unsigned a = __byte_perm(r[4 * k], r[4 * k + 1], 0x7351);      // e0 o0 e2 o2
      const unsigned b = __byte_perm(r[4 * k + 2], r[4 * k + 3], 0x7351);  // e1 o1 e3 o3
      out[2 * k] = __byte_perm(a, b, 0x5410);                              // e0 o0 e1 o1
      out[2 * k + 1] = __byte_perm(a, b, 0x7632);                          // e2 o2 e3 o3
    }
  }
  return make_uint4(out[0], out[1], out[2], out[3]);
}

// Writes a group's 16 output bytes (output pixels 2 x0 ..) of an output row, those
// inside the row only. `words`: whole group, row at a 16-byte boundary.
template <int C>
__device__ __forceinline__ void store_group(unsigned char* row, int x0, int out_width, const uint4& v, bool words) {
  unsigned char* p = row + static_cast<std::size_t>(2 * x0) * C;
  if (words) {
    *reinterpret_cast<uint4*>(p) = v;
    return;
  }
  const unsigned w[4] = {v.x, v.y, v.z, v.w};
  const int bytes = min(2 * kGroupBytes, (out_width - 2 * x0) * C);
#pragma unroll
  for (int j = 0; j < 2 * kGroupBytes; ++j)
    if (j < bytes) p[j] = static_cast<unsigned char>(w[j / 4] >> (8 * (j % 4)));
}

template <int C>
__global__ void __launch_bounds__(32 * GeometryTuning::kDoubleWarps)
    resize_double_linear_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                std::size_t dst_pitch, int width, int height, int groups, int strip_rows,
                                bool src_words, bool dst_words) {
  constexpr int G = kGroupBytes / C;
  const int g = static_cast<int>(blockIdx.x) * 32 + static_cast<int>(threadIdx.x);
  if (g >= groups) return;
  const long long first = (static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y) * strip_rows;
  if (first >= height) return;
  const int r0 = static_cast<int>(first);
  const int r1 = static_cast<int>(min(first + strip_rows, static_cast<long long>(height)));
  const int x0 = g * G;
  const bool whole = x0 + G <= width;
  const bool load_words = src_words && whole, store_words = dst_words && whole;
  const auto source_row = [&](int r) { return src + static_cast<std::size_t>(r) * src_pitch; };
  const auto output_row = [&](int r) { return dst + static_cast<std::size_t>(r) * dst_pitch; };

  RowSums previous = horizontal<C>(load_group<C>(source_row(r0 > 0 ? r0 - 1 : 0), x0, width, load_words));
  RowSums current = horizontal<C>(load_group<C>(source_row(r0), x0, width, load_words));
  for (int r = r0; r < r1; ++r) {
    // The next row's load is in flight while row 2r is made and stored.
    const SourceGroup next_bytes = load_group<C>(source_row(r + 1 < height ? r + 1 : height - 1), x0, width, load_words);
    store_group<C>(output_row(2 * r), x0, 2 * width, pack_row<C>(current, previous), store_words);
    const RowSums next = horizontal<C>(next_bytes);
    store_group<C>(output_row(2 * r + 1), x0, 2 * width, pack_row<C>(current, next), store_words);
    previous = current;
    current = next;
  }
}

template <int C>
void launch_double(const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  constexpr int W = GeometryTuning::kDoubleWarps;
  const long long groups = blocks_for(static_cast<long long>(src.width) * C, kGroupBytes);
  const long long blocks_x = blocks_for(groups, 32);
  // Shorter strips while the grid would not fill the GPU (an 8K gray image has only
  // 30 warps across), or longer ones where it would be too tall for gridDim.y.
  int strip_rows = GeometryTuning::kDoubleStripRows;
  const auto warps = [&](int rows) { return blocks_x * blocks_for(src.height, rows); };
  while (strip_rows > GeometryTuning::kDoubleMinStripRows && warps(strip_rows) < GeometryTuning::kDoubleMinWarps)
    strip_rows /= 2;
  while (blocks_for(blocks_for(src.height, strip_rows), W) > kMaxGridY) strip_rows *= 2;
  const dim3 grid(grid_x(blocks_x, "resize_double_linear_kernel"),
                  static_cast<unsigned>(blocks_for(blocks_for(src.height, strip_rows), W)));
  const bool src_words = reinterpret_cast<std::uintptr_t>(src.data) % 8 == 0 && src.pitch % 8 == 0;
  const bool dst_words = reinterpret_cast<std::uintptr_t>(dst.data) % 16 == 0 && dst.pitch % 16 == 0;
  resize_double_linear_kernel<C><<<grid, dim3(32, W), 0, ctx.stream>>>(
      static_cast<const unsigned char*>(src.data), src.pitch, static_cast<unsigned char*>(dst.data), dst.pitch,
      src.width, src.height, static_cast<int>(groups), strip_rows, src_words, dst_words);
}

}  // namespace

bool launch_resize_double_linear(const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  if (src.format.type != ChannelType::U8 || (src.format.channels != 1 && src.format.channels != 4)) return false;
  if (dst.width != 2LL * src.width || dst.height != 2LL * src.height) return false;
  if (src.format.channels == 4) launch_double<4>(src, dst, ctx);
  else launch_double<1>(src, dst, ctx);
  check_launch("resize_double_linear_kernel", ctx);
  return true;
}

}  // namespace gpufilter::kernels
