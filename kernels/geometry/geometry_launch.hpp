#pragma once
// Launchers for the geometry family (seed 000, section 4.4: the transpose experiment);
// the lab's steps of it are in lab/geometry/geometry_lab_launch.hpp.
// Views are validated device views of one format; dst has the output's shape.
#include "gpufilter/geometry_types.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// Transpose and the quarter turns as one mapping: dst(dx, dy) = src(sx, sy) with
//   sx = mirror_x ? src.width - 1 - dy : dy,   sy = mirror_y ? src.height - 1 - dx : dx.
// Transpose mirrors nothing, a clockwise quarter turn mirrors y, three quarters x.
struct QuarterTurnMap {
  bool mirror_x = false;
  bool mirror_y = false;
};

// NaiveRow: a thread per pixel, reading rows (transpose_naive.cuh has the lab's other steps).
void launch_transpose_naive(const ImageView& src, const ImageView& dst, QuarterTurnMap map, BlockShape block,
                            const ExecContext& ctx);
// A 32x32 tile through shared memory, with or without a column of padding.
void launch_transpose_tiled(const ImageView& src, const ImageView& dst, QuarterTurnMap map, bool padded,
                            const ExecContext& ctx);
// The padded tile moving several pixels per word; returns false (launching nothing)
// when the views' addresses or pitches are not aligned to the word's access size.
bool launch_transpose_fast(const ImageView& src, const ImageView& dst, QuarterTurnMap map, const ExecContext& ctx);
// 1-byte pixels: 4x4 byte blocks transposed in registers (fast's kernel for u8x1);
// returns false (launching nothing) for other pixels or views not aligned to 4 bytes.
bool launch_transpose_bytes(const ImageView& src, const ImageView& dst, QuarterTurnMap map, const ExecContext& ctx);
// The same with 16-byte global words (fast_wide's kernel for u8x1); false (launching
// nothing) for other pixels or views not aligned to 16 bytes.
bool launch_transpose_bytes16(const ImageView& src, const ImageView& dst, QuarterTurnMap map,
                              const ExecContext& ctx);

// dst(x, y) = src(mirror_x ? w - 1 - x : x, mirror_y ? h - 1 - y : y): a thread per pixel.
void launch_flip_naive(const ImageView& src, const ImageView& dst, bool mirror_x, bool mirror_y,
                       const ExecContext& ctx);
// 16-byte accesses (48-byte words of 3-, 6- and 12-byte pixels reversed in registers);
// returns false (launching nothing) when the views' alignment does not allow them.
// wide (mirror_x only): byte-permute reversal,
// several rows per thread for 16-byte words, 48-byte words through a warp's stage.
bool launch_flip_vectorized(const ImageView& src, const ImageView& dst, bool mirror_x, bool mirror_y, bool wide,
                            const ExecContext& ctx);

// Resize src to dst's size with `filter` (nearest, linear, cubic, lanczos, area).
void launch_resize(const ImageView& src, const ImageView& dst, ResizeFilter filter, const ExecContext& ctx);
// Area halving of 8-bit images (src exactly twice dst's size) with 16-byte words: the
// same values as launch_resize's area kernel. False (launching nothing) for other
// sizes, types, or rows not starting at 16-byte boundaries.
bool launch_resize_half_area(const ImageView& src, const ImageView& dst, const ExecContext& ctx);

// Linear resize when dst is at least as wide as src (any height): a warp's row of
// output from a window of vertically blended source columns in shared memory, several
// pixels a lane stored as 16-byte words; the same values as launch_resize's linear
// kernel within float rounding. False (launching nothing) when dst is narrower.
bool launch_resize_linear_up(const ImageView& src, const ImageView& dst, const ExecContext& ctx);
// Linear enlargement by exactly 2 in both axes of 8-bit images, in integers
// (16-bit lanes, each source row blended horizontally once for two output rows): the
// same values as launch_resize's linear kernel and the reference. False (launching
// nothing) for other formats or sizes.
bool launch_resize_double_linear(const ImageView& src, const ImageView& dst, const ExecContext& ctx);

// Bilinear rotation: dst(x, y) samples src at (m0 x + m1 y + m2, m3 x + m4 y + m5);
// positions outside src take `fill` (per channel, already in the format's range).
// A thread per pixel, positions in double (RotateVariant::Direct).
void launch_rotate_bilinear(const ImageView& src, const ImageView& dst, const double inverse_map[6],
                            const double fill[4], const ExecContext& ctx);
// The same from 2-D warp tiles with float steps and branch-free edges
// (rotate_bilinear_tiled.cuh). False (launching nothing) for outputs taller than the
// grid allows (about a million rows).
bool launch_rotate_bilinear_tiled(const ImageView& src, const ImageView& dst, const double inverse_map[6],
                                  const double fill[4], const ExecContext& ctx);

}  // namespace gpufilter::kernels
