#pragma once
// Launchers of the lab's geometry kernels: the seed's transpose steps beyond naive_row
// (000, 4.4.2), its copy bounds, and the bilinear rotation four pixels a lane or through
// a texture object. Views are validated device views of one format; dst has the
// output's shape.
#include "geometry/geometry_launch.hpp"
#include "gpufilter/geometry.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::lab {

// A step of the seed's naive transpose: threads over the source (reading rows) or the
// destination (reading columns), blocks in row-major or diagonal order, one pixel a
// thread or four (GeometryTuning::kUnroll), blockDim.x apart.
struct TransposeStep {
  bool read_rows = true;
  bool diagonal = false;
  bool unroll = false;
};
void launch_transpose_step(const ImageView& src, const ImageView& dst, kernels::QuarterTurnMap map,
                           TransposeStep step, BlockShape block, const ExecContext& ctx);

// The seed's bounds for the bench (not transposes): a same-shape copy reading and
// writing rows (copy_row, the upper bound) or columns (copy_col, the lower bound).
void launch_copy_bound(const ImageView& src, const ImageView& dst, bool columns, BlockShape block,
                       const ExecContext& ctx);

// The library's tiled bilinear kernel with four adjacent pixels a lane, 16-byte stores
// (rotate_bilinear_tiled.cuh). False (launching nothing) for outputs taller than the
// grid allows.
bool launch_rotate_bilinear_wide(const ImageView& src, const ImageView& dst, const double inverse_map[6],
                                 const double fill[4], const ExecContext& ctx);
// The tiled kernel reading its taps through a texture object over the source view.
// False (launching nothing) for 3-channel formats, views whose start or pitch the
// texture unit cannot take, or outputs too tall for the grid.
bool launch_rotate_bilinear_texture(const ImageView& src, const ImageView& dst, const double inverse_map[6],
                                    const double fill[4], const ExecContext& ctx);

}  // namespace gpufilter::lab
