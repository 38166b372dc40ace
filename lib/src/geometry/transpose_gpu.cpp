// Transpose, quarter turns and flips: argument checks, then the chosen kernel.
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/geometry.hpp"
#include "gpufilter/ops.hpp"
#include "kernels/geometry/geometry_launch.hpp"
#include "geometry/geometry_checks.hpp"

namespace gpufilter {
namespace {

void run_quarter_turn(const ImageView& src, const ImageView& dst, kernels::QuarterTurnMap map,
                      const TransposeOptions& options, const ExecContext& ctx) {
  switch (options.variant) {
    case TransposeVariant::Tiled: kernels::launch_transpose_tiled(src, dst, map, false, ctx); return;
    case TransposeVariant::TiledPadded: kernels::launch_transpose_tiled(src, dst, map, true, ctx); return;
    case TransposeVariant::FastWide:
      if (kernels::launch_transpose_bytes16(src, dst, map, ctx)) return;
      [[fallthrough]];  // other pixels, and 1-byte views not aligned to 16 bytes
    case TransposeVariant::Fast:
      // Views whose addresses or pitches do not allow the wide words take the padded tile.
      if (!kernels::launch_transpose_fast(src, dst, map, ctx)) kernels::launch_transpose_tiled(src, dst, map, true, ctx);
      return;
    case TransposeVariant::NaiveRow: break;
  }
  kernels::launch_transpose_naive(src, dst, map, options.block, ctx);
}

void run_flip(const ImageView& src, const ImageView& dst, bool mirror_x, bool mirror_y, FlipVariant variant,
              const ExecContext& ctx) {
  // Views whose alignment does not allow 16-byte words take the naive kernel.
  if (variant != FlipVariant::Naive &&
      kernels::launch_flip_vectorized(src, dst, mirror_x, mirror_y, variant == FlipVariant::Wide, ctx))
    return;
  kernels::launch_flip_naive(src, dst, mirror_x, mirror_y, ctx);
}

}  // namespace

void transpose(const ImageView& src, const ImageView& dst, const TransposeOptions& options, const ExecContext& ctx) {
  ops::check_reshaping_pair("transpose", src, dst, src.height, src.width);
  run_quarter_turn(src, dst, kernels::QuarterTurnMap{false, false}, options, ctx);
}

void rotate_quarter_turns(const ImageView& src, const ImageView& dst, int angle_degrees,
                          const TransposeOptions& options, const ExecContext& ctx) {
  if (angle_degrees % 90 != 0)
    throw Error(ErrorCode::InvalidArgument,
                "rotate: quarter turns take a multiple of 90 degrees, got " + std::to_string(angle_degrees));
  const int turns = ((angle_degrees / 90) % 4 + 4) % 4;  // clockwise quarter turns
  if (turns % 2 == 1) {
    ops::check_reshaping_pair("rotate", src, dst, src.height, src.width);
    // dst(dx, dy) = src(dy, h-1-dx) for a clockwise quarter turn, src(w-1-dy, dx) for three.
    run_quarter_turn(src, dst, kernels::QuarterTurnMap{turns == 3, turns == 1}, options, ctx);
    return;
  }
  ops::check_reshaping_pair("rotate", src, dst, src.width, src.height);
  if (turns == 0) {
    copy(src, dst, CopyVariant::Vectorized, ctx);
    return;
  }
  const bool tiled_family =
      options.variant == TransposeVariant::Tiled || options.variant == TransposeVariant::TiledPadded;
  const bool fast_family = options.variant == TransposeVariant::Fast || options.variant == TransposeVariant::FastWide;
  run_flip(src, dst, true, true,
           fast_family ? FlipVariant::Wide : tiled_family ? FlipVariant::Vectorized : FlipVariant::Naive, ctx);
}

void flip(const ImageView& src, const ImageView& dst, FlipAxis axis, FlipVariant variant, const ExecContext& ctx) {
  ops::check_reshaping_pair("flip", src, dst, src.width, src.height);
  run_flip(src, dst, axis != FlipAxis::Vertical, axis != FlipAxis::Horizontal, variant, ctx);
}

}  // namespace gpufilter
