#pragma once
/// @file
/// CPU reference implementations: plain, obviously-correct loops in double precision,
/// sharing no code with the kernels. They back the tests, the bench's checks and the
/// CLI's --device cpu. For every function here:
/// - Preconditions: views point at host memory the CPU can read and write (not checked;
///   a device pointer is undefined behaviour). Any pitch; no alignment needed.
/// - Errors: Error(InvalidArgument) for an empty view, a pitch shorter than a row, a dst
///   of the wrong size or format, or parameters out of range; Error(UnsupportedFormat)
///   for a channel count other than 1, 3 or 4. After an error dst is unspecified.
/// - Synchronisation: synchronous. They make no CUDA call and take no stream; the call
///   returns when dst is complete (large images split their rows over worker threads,
///   joined before the return).
#include "gpufilter/border.hpp"
#include "gpufilter/conversions.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/geometry.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/median.hpp"
#include "gpufilter/ops.hpp"
#include "gpufilter/point_ops.hpp"

/// The CPU references of the ops, the tests' oracle (see the file's comment).
namespace gpufilter::reference {

/// Copies src into dst, of equal size and format.
void copy(const ImageView& src, const ImageView& dst);
/// Any filter, as filter_spec.hpp defines it. src and dst may overlap.
void apply_filter(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border = {});
/// apply_filter() with gaussian_spec(params).
inline void gaussian_blur(const ImageView& src, const ImageView& dst, const GaussianParams& params,
                          const Border& border = {}) {
  reference::apply_filter(src, dst, gaussian_spec(params), border);
}
// Each channel's median over the (2 * radius + 1)^2 window (median.hpp). src and dst may
// overlap.
void median_filter(const ImageView& src, const ImageView& dst, const MedianParams& params, const Border& border = {});

/// @name Geometry
/// dst has the output's shape (transpose and odd quarter turns swap width and
/// height) and the source's format; src and dst must not overlap.
///@{
/// dst(x, y) = src(y, x); dst is src.height wide and src.width tall.
void transpose(const ImageView& src, const ImageView& dst);
/// Clockwise, a multiple of 90 degrees (90, 180, 270, -90, ...); any other angle throws
/// Error(InvalidArgument).
void rotate_quarter_turns(const ImageView& src, const ImageView& dst, int angle_degrees);
/// Mirrors src about `axis` into dst, of the same size.
void flip(const ImageView& src, const ImageView& dst, FlipAxis axis);
/// Resizes src to dst's size, as gpufilter::resize defines each filter, in double
/// precision; integer formats round to nearest (ties to even) and saturate.
void resize(const ImageView& src, const ImageView& dst, ResizeFilter filter);
/// Clockwise by any angle about the centres of src and dst, bilinear, outside = fill.
void rotate(const ImageView& src, const ImageView& dst, double angle_degrees, const std::array<double, 4>& fill);
///@}

/// @name Point ops
/// point_ops.hpp states the math. src and dst may be the same view.
///@{
/// gpufilter::invert's math on host images.
void invert(const ImageView& src, const ImageView& dst, PointChannels channels = {});
/// gpufilter::brightness's math on host images.
void brightness(const ImageView& src, const ImageView& dst, const BrightnessParams& params);
/// gpufilter::contrast's math on host images.
void contrast(const ImageView& src, const ImageView& dst, const ContrastParams& params);
/// gpufilter::gamma's math on host images.
void gamma(const ImageView& src, const ImageView& dst, const GammaParams& params);
/// gpufilter::levels's math on host images.
void levels(const ImageView& src, const ImageView& dst, const LevelsParams& params);
///@}

/// @name Conversions
/// conversions.hpp states the math; dst of src's size and of the format
/// each names (Error(InvalidArgument) otherwise, or for a src channel count the
/// conversion does not take).
///@{
/// gpufilter::gray on host images.
void gray(const ImageView& src, const ImageView& dst, GrayWeights weights = GrayWeights::Bt601);
/// gpufilter::add_alpha on host images.
void add_alpha(const ImageView& src, const ImageView& dst);
/// gpufilter::drop_alpha on host images.
void drop_alpha(const ImageView& src, const ImageView& dst);
/// gpufilter::swap_channels on host images.
void swap_channels(const ImageView& src, const ImageView& dst, const ChannelOrder& order);
/// gpufilter::convert_depth on host images.
void convert_depth(const ImageView& src, const ImageView& dst);
/// gpufilter::to_planar on host images.
void to_planar(const ImageView& src, const PlanarView& dst);
/// gpufilter::to_interleaved on host images.
void to_interleaved(const PlanarView& src, const ImageView& dst);
///@}

}  // namespace gpufilter::reference
