// Linear enlargement by exactly 2 in both axes of 8-bit images, in integers. With
// pixel-centre alignment every output sample is (9 a + 3 b + 3 c + d) / 16 of its 2x2
// source neighbours (a the nearest; edge pixels repeated): output column 2m blends
// source columns m and m - 1 as 3/4 and 1/4, column 2m + 1 columns m and m + 1, and the
// same for rows. The sums are exact, so rounding them to nearest with ties to even
// gives what the reference (and the float kernels, whose sums are exact too) give.
//
// Two samples share a 32-bit register as 16-bit lanes, each held times 16 (bits 4..11
// of its lane): bytes 0 and 2 of a source word in one register, 1 and 3 in another. A
// source row's horizontal sums 3 x + y are at most 16 320 a lane and the 2x2 sum
// 3 h + h' at most 65 280, so no lane carries into the next, and the rounded value
// lands on a byte of its lane (byte permutes pack the output).
//
// A thread owns a group of source bytes (2 RGBA pixels, 8 gray ones: 8 bytes; 4 RGB
// pixels: 12 bytes) and walks down a strip of source rows: each row is loaded and
// blended horizontally once and serves two output rows (2r from rows r and r - 1,
// 2r + 1 from rows r and r + 1), the previous row's sums kept in registers. Groups of
// a warp are adjacent, so its loads and stores (16 or 24 output bytes a lane) cover
// contiguous bytes. Views whose rows do not start at word boundaries (8 or 4 bytes for
// the source, 16 or 8 for the destination), and the row's last, partial group, go
// byte by byte.
#include <cstdint>

#include "common/launch.cuh"
#include "geometry/geometry_launch.hpp"
#include "geometry/geometry_tuning.hpp"

namespace gpufilter::kernels {
namespace {

// A thread's share of a row for C channels: kWords source words (kPixels pixels) in,
// 2 kWords words out per output row, accessed as words when the views' rows start at
// kLoadAlign (source) and kStoreAlign (destination) byte boundaries.
template <int C>
struct Group {
  static constexpr int kWords = C == 3 ? 3 : 2;
  static constexpr int kBytes = 4 * kWords;
  static constexpr int kPixels = kBytes / C;
  static constexpr int kOutWords = 2 * kWords;
  static constexpr int kLoadAlign = C == 3 ? 4 : 8;
  static constexpr int kStoreAlign = C == 3 ? 8 : 16;
  static_assert(kBytes % C == 0, "whole pixels");
};

// Bytes 0 and 2 (even_bytes) or 1 and 3 (odd_bytes) of a word as two 16-bit lanes,
// each value times 16.
__device__ __forceinline__ unsigned even_bytes(unsigned w) { return (w << 4) & 0x0FF00FF0u; }
__device__ __forceinline__ unsigned odd_bytes(unsigned w) { return (w >> 4) & 0x0FF00FF0u; }

// A group's source bytes in one row as the words of bytes -4 .. kBytes + 3 relative to
// the group's first byte: word[1 .. kWords] the group, word[0] ends with the left
// neighbour pixel's C bytes and word[kWords + 1] starts with the right one's (the other
// bytes of those two words are never used).
template <int C>
struct SourceGroup {
  unsigned word[Group<C>::kWords + 2];
};

// A source row's horizontal sums for a group, 3 x + y per lane (times 16): for source
// word j, h[4j .. 4j + 3] are the even outputs of its bytes 0 and 2, their odd outputs,
// the even outputs of bytes 1 and 3, their odd outputs.
template <int C>
struct RowSums {
  unsigned h[4 * Group<C>::kWords];
};

// C bytes of pixel x of `row`, shifted left by `shift` bits.
template <int C>
__device__ __forceinline__ unsigned pixel_bytes(const unsigned char* row, int x, int shift) {
  unsigned v = 0u;
#pragma unroll
  for (int c = 0; c < C; ++c) v |= static_cast<unsigned>(row[static_cast<std::size_t>(x) * C + c]) << (shift + 8 * c);
  return v;
}

// Reads a group of row `row`: pixels x0 .. x0 + kPixels - 1 and their neighbours, each
// index clamped to [0, width - 1] (so the values past a partial group's end repeat
// the last pixel, as the edge rule wants for its right neighbour). `words`: the group
// is whole and the row starts at a kLoadAlign boundary.
template <int C>
__device__ __forceinline__ SourceGroup<C> load_group(const unsigned char* row, int x0, int width, bool words) {
  using G = Group<C>;
  SourceGroup<C> s;
  const unsigned char* first = row + static_cast<std::size_t>(x0) * C;
  if (words) {
    if constexpr (C == 3) {
#pragma unroll
      for (int k = 0; k < G::kWords; ++k) s.word[1 + k] = reinterpret_cast<const unsigned*>(first)[k];
    } else {
      const uint2 w = *reinterpret_cast<const uint2*>(first);
      s.word[1] = w.x;
      s.word[2] = w.y;
    }
  } else {
#pragma unroll
    for (int k = 0; k < G::kWords; ++k) s.word[1 + k] = 0u;
#pragma unroll
    for (int i = 0; i < G::kBytes; ++i) {
      const int x = min(x0 + i / C, width - 1);
      s.word[1 + i / 4] |= static_cast<unsigned>(row[static_cast<std::size_t>(x) * C + i % C]) << (8 * (i % 4));
    }
  }
  // The neighbours: whole words inside the row, else the clamped pixel's bytes.
  if (words && x0 > 0) s.word[0] = reinterpret_cast<const unsigned*>(first)[-1];
  else s.word[0] = pixel_bytes<C>(row, x0 > 0 ? x0 - 1 : 0, 8 * (4 - C));
  const int right = x0 + G::kPixels;  // the right neighbour, if inside the row
  const bool word_inside = static_cast<long long>(right) * C + 4 <= static_cast<long long>(width) * C;
  if (words && word_inside) s.word[G::kWords + 1] = reinterpret_cast<const unsigned*>(first)[G::kWords];
  else s.word[G::kWords + 1] = pixel_bytes<C>(row, right < width ? right : width - 1, 0);
  return s;
}

// Output pixel 2m of a source pixel x with neighbours l and r is 3 x + l, pixel
// 2m + 1 is 3 x + r (per channel, before the vertical blend). A byte's neighbours are
// the bytes C before and after it: in lanes of the neighbouring words' registers, or
// (a 16-bit funnel shift) straddling two of them.
template <int C>
__device__ __forceinline__ RowSums<C> horizontal(const SourceGroup<C>& s) {
  constexpr int W = Group<C>::kWords;
  unsigned lo[W + 2], hi[W + 2];
#pragma unroll
  for (int k = 0; k < W + 2; ++k) {
    lo[k] = even_bytes(s.word[k]);
    hi[k] = odd_bytes(s.word[k]);
  }
  RowSums<C> out;
#pragma unroll
  for (int k = 1; k <= W; ++k) {
    unsigned lo_left, lo_right, hi_left, hi_right;  // neighbours of (b0, b2) and (b1, b3)
    if constexpr (C == 1) {
      lo_left = __funnelshift_l(hi[k - 1], hi[k], 16);  // (b-1, b1)
      lo_right = hi[k];                                 // (b1, b3)
      hi_left = lo[k];                                  // (b0, b2)
      hi_right = __funnelshift_r(lo[k], lo[k + 1], 16); // (b2, b4)
    } else if constexpr (C == 3) {
      lo_left = hi[k - 1];                               // (b-3, b-1)
      lo_right = __funnelshift_r(hi[k], hi[k + 1], 16);  // (b3, b5)
      hi_left = __funnelshift_l(lo[k - 1], lo[k], 16);   // (b-2, b0)
      hi_right = lo[k + 1];                              // (b4, b6)
    } else {
      lo_left = lo[k - 1];
      lo_right = lo[k + 1];
      hi_left = hi[k - 1];
      hi_right = hi[k + 1];
    }
    const int j = 4 * (k - 1);
    out.h[j + 0] = 3u * lo[k] + lo_left;
    out.h[j + 1] = 3u * lo[k] + lo_right;
    out.h[j + 2] = 3u * hi[k] + hi_left;
    out.h[j + 3] = 3u * hi[k] + hi_right;
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

// An output row's 2 kWords words from the nearer source row's sums and the farther
// one's.
template <int C>
struct OutputWords {
  unsigned word[Group<C>::kOutWords];
};
template <int C>
__device__ __forceinline__ OutputWords<C> pack_row(const RowSums<C>& near, const RowSums<C>& far) {
  constexpr int W = Group<C>::kWords;
  unsigned r[4 * W];
#pragma unroll
  for (int i = 0; i < 4 * W; ++i) r[i] = blend_round(near.h[i], far.h[i]);
  OutputWords<C> out;
  if constexpr (C == 4) {
    // Source word j is pixel j: output pixels 2j and 2j + 1, channels (0, 2) and (1, 3).
#pragma unroll
    for (int j = 0; j < W; ++j) {
      out.word[2 * j] = __byte_perm(r[4 * j], r[4 * j + 2], 0x7351);
      out.word[2 * j + 1] = __byte_perm(r[4 * j + 1], r[4 * j + 3], 0x7351);
    }
  } else if constexpr (C == 1) {
#pragma unroll
    for (int j = 0; j < W; ++j) {
      const unsigned a = __byte_perm(r[4 * j], r[4 * j + 1], 0x7351);      // e0 o0 e2 o2
      const unsigned b = __byte_perm(r[4 * j + 2], r[4 * j + 3], 0x7351);  // e1 o1 e3 o3
      out.word[2 * j] = __byte_perm(a, b, 0x5410);                         // e0 o0 e1 o1
      out.word[2 * j + 1] = __byte_perm(a, b, 0x7632);                     // e2 o2 e3 o3
    }
  } else {
    // Source byte i = 3 m + c makes output bytes 6 m + c (even) and 6 m + 3 + c (odd).
#pragma unroll
    for (int k = 0; k < Group<C>::kOutWords; ++k) out.word[k] = 0u;
#pragma unroll
    for (int i = 0; i < Group<C>::kBytes; ++i) {
      const int p = i % 4, base = 4 * (i / 4) + (p % 2 == 1 ? 2 : 0), shift = 8 + 16 * (p / 2);
#pragma unroll
      for (int odd = 0; odd < 2; ++odd) {
        const int o = 6 * (i / 3) + 3 * odd + i % 3;
        out.word[o / 4] |= ((r[base + odd] >> shift) & 0xFFu) << (8 * (o % 4));
      }
    }
  }
  return out;
}

// Writes a group's output bytes (output pixels 2 x0 ..) of an output row, those inside
// the row only. `words`: whole group, row at a kStoreAlign boundary.
template <int C>
__device__ __forceinline__ void store_group(unsigned char* row, int x0, int out_width, const OutputWords<C>& v,
                                            bool words) {
  using G = Group<C>;
  unsigned char* p = row + static_cast<std::size_t>(2 * x0) * C;
  if (words) {
    if constexpr (G::kOutWords % 4 == 0) {
#pragma unroll
      for (int k = 0; k < G::kOutWords / 4; ++k)
        reinterpret_cast<uint4*>(p)[k] =
            make_uint4(v.word[4 * k], v.word[4 * k + 1], v.word[4 * k + 2], v.word[4 * k + 3]);
    } else {
#pragma unroll
      for (int k = 0; k < G::kOutWords / 2; ++k)
        reinterpret_cast<uint2*>(p)[k] = make_uint2(v.word[2 * k], v.word[2 * k + 1]);
    }
    return;
  }
  const int bytes = min(2 * G::kPixels, out_width - 2 * x0) * C;  // 4 kOutWords at most
#pragma unroll
  for (int j = 0; j < 4 * G::kOutWords; ++j)
    if (j < bytes) p[j] = static_cast<unsigned char>(v.word[j / 4] >> (8 * (j % 4)));
}

template <int C>
__global__ void __launch_bounds__(32 * GeometryTuning::kDoubleWarps)
    resize_double_linear_kernel(const unsigned char* __restrict__ src, std::size_t src_pitch,
                                unsigned char* __restrict__ dst, std::size_t dst_pitch, int width, int height,
                                int groups, int strip_rows, bool src_words, bool dst_words) {
  constexpr int G = Group<C>::kPixels;
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

  RowSums<C> previous = horizontal<C>(load_group<C>(source_row(r0 > 0 ? r0 - 1 : 0), x0, width, load_words));
  RowSums<C> current = horizontal<C>(load_group<C>(source_row(r0), x0, width, load_words));
  for (int r = r0; r < r1; ++r) {
    // The next row's load is in flight while row 2r is made and stored.
    const SourceGroup<C> next_bytes =
        load_group<C>(source_row(r + 1 < height ? r + 1 : height - 1), x0, width, load_words);
    store_group<C>(output_row(2 * r), x0, 2 * width, pack_row<C>(current, previous), store_words);
    const RowSums<C> next = horizontal<C>(next_bytes);
    store_group<C>(output_row(2 * r + 1), x0, 2 * width, pack_row<C>(current, next), store_words);
    previous = current;
    current = next;
  }
}

template <int C>
void launch_double(const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  constexpr int W = GeometryTuning::kDoubleWarps;
  const long long groups = blocks_for(src.width, Group<C>::kPixels);
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
  const bool src_words = rows_aligned(src.data, src.pitch, Group<C>::kLoadAlign);
  const bool dst_words = rows_aligned(dst.data, dst.pitch, Group<C>::kStoreAlign);
  resize_double_linear_kernel<C><<<grid, dim3(32, W), 0, ctx.stream>>>(
      static_cast<const unsigned char*>(src.data), src.pitch, static_cast<unsigned char*>(dst.data), dst.pitch,
      src.width, src.height, static_cast<int>(groups), strip_rows, src_words, dst_words);
}

}  // namespace

bool launch_resize_double_linear(const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  if (src.format.type != ChannelType::U8 || dst.width != 2LL * src.width || dst.height != 2LL * src.height)
    return false;
  switch (src.format.channels) {
    case 1: launch_double<1>(src, dst, ctx); break;
    case 3: launch_double<3>(src, dst, ctx); break;
    case 4: launch_double<4>(src, dst, ctx); break;
    default: return false;
  }
  check_launch("resize_double_linear_kernel", ctx);
  return true;
}

}  // namespace gpufilter::kernels
