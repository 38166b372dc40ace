#pragma once
/// @file
/// Geometry: transpose, rotations by quarter turns, flips and crops (pixels are moved,
/// never computed, so these results are exact), plus rotation by any angle and resize.
/// The shape is op(src, dst, ..., ctx) as for the other ops, except that dst has the
/// output's size (transpose and quarter turns swap width and height).
///
/// For transpose, rotate_quarter_turns, rotate, flip and resize:
/// - Preconditions: src and dst are non-empty views of device memory, of one format,
///   each naturally aligned (a 4-channel pixel to its full size), at most 2^30 pixels
///   wide, not overlapping (none runs in place); dst has the size the op names. Any
///   pitch, sub-views included; views whose alignment does not allow a variant's wide
///   accesses take a narrower kernel instead of failing.
/// - Errors: Error(InvalidArgument) for views or parameters that break these rules (the
///   message names the op), Error(UnsupportedFormat) for a channel count other than 1,
///   3 or 4, Error(Cuda) when a launch fails. None allocates memory.
/// - Synchronisation: none. The work is enqueued on ctx.stream and the call returns;
///   only ExecContext::sync_after_launch (or GPUFILTER_SYNC_LAUNCHES=1) makes it wait
///   after each launch.
///
/// crop, parse_geometry, rotated_size, resize_fit and the name functions touch no GPU.
#include <array>
#include <string>

#include "gpufilter/geometry_types.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

/// dst(x, y) = src(y, x); dst is src.height wide and src.width tall.
void transpose(const ImageView& src, const ImageView& dst, const TransposeOptions& options = {},
               const ExecContext& ctx = {});

/// Rotates clockwise (as ImageMagick's -rotate) by a multiple of 90 degrees: 90, 180,
/// 270, -90, ... For 90 and 270 dst is src.height wide and src.width tall, otherwise
/// src's size; 0 (or 360, ...) is a copy. A half turn is a flip of both axes: naive_row
/// runs FlipVariant::Naive, tiled and tiled_padded Vectorized, the fast ones Wide.
/// Throws Error(InvalidArgument) for other angles, before any view is checked.
void rotate_quarter_turns(const ImageView& src, const ImageView& dst, int angle_degrees,
                          const TransposeOptions& options = {}, const ExecContext& ctx = {});

/// Rotates clockwise by any angle about the image's centre, mapped onto dst's centre
/// (dst may be larger: rotated_size with expand), interpolating bilinearly; pixels
/// outside src count as `fill` (per channel, in the image's units; integer formats
/// round and saturate it), as cv::warpAffine with INTER_LINEAR and BORDER_CONSTANT.
/// dst may have any size, in src's format. Error(InvalidArgument) also for an angle
/// that is not finite. Without a variant: Tiled, Direct for 3-channel formats (the
/// fastest measured).
void rotate(const ImageView& src, const ImageView& dst, double angle_degrees, const std::array<double, 4>& fill = {},
            const ExecContext& ctx = {});
/// rotate() with the given variant.
void rotate(const ImageView& src, const ImageView& dst, double angle_degrees, const std::array<double, 4>& fill,
            RotateVariant variant, const ExecContext& ctx = {});
/// The output size: the input's, or with `expand` the rotated image's bounding box
/// (rounded up, at least 1x1); x and y are 0. Arithmetic only: no GPU, no checks, no throw.
Rect rotated_size(int width, int height, double angle_degrees, bool expand);

/// Mirrors src into dst (of src's size) about `axis`.
void flip(const ImageView& src, const ImageView& dst, FlipAxis axis, FlipVariant variant = FlipVariant::Wide,
          const ExecContext& ctx = {});

// ---- crop ----------------------------------------------------------------------------
/// ImageMagick's geometry "WxH+X+Y" (or "WxH", at the origin): whole numbers of up to 9
/// digits, 'x' or 'X', offsets signed with '+' or '-' (a negative offset parses; crop()
/// refuses it). Throws Error(InvalidArgument) saying what is wrong with the text,
/// including an empty size. No GPU.
Rect parse_geometry(const std::string& text);
/// The rectangle of `view` as a view sharing its memory: no copy, no kernel, no stream,
/// so `view` may be in host or device memory. Throws Error(InvalidArgument) naming the
/// rectangle and the image when the rectangle is empty or leaves the image.
ImageView crop(const ImageView& view, const Rect& rect);

/// Resizes src to dst's size (any size, in src's format) with ResizeVariant::Fast.
/// Integer formats round to nearest and saturate.
void resize(const ImageView& src, const ImageView& dst, ResizeFilter filter, const ExecContext& ctx = {});
/// resize() with the given variant.
void resize(const ImageView& src, const ImageView& dst, ResizeFilter filter, ResizeVariant variant,
            const ExecContext& ctx = {});
/// The output size for a request: `width` x `height` fitted inside the box keeping the
/// aspect ratio (as ImageMagick's -resize WxH) unless `exact`: the limiting side keeps
/// its requested length, the other is rounded (at least 1). x and y are 0. No GPU;
/// throws Error(InvalidArgument) unless all four sizes are positive.
Rect resize_fit(int src_width, int src_height, int width, int height, bool exact);

/// @name Names
/// As the CLI and the registry write them ("naive_row", "32x8", "h"). No GPU; to_string
/// does not throw, and each *_from_name throws Error(InvalidArgument) naming the choices
/// for an unknown name.
///@{

/// "naive_row", "tiled", "tiled_padded", "fast" or "fast_wide".
const char* to_string(TransposeVariant variant);
/// "direct" or "fast".
const char* to_string(ResizeVariant variant);
/// "32x8", "16x16" or "8x32".
const char* to_string(BlockShape block);
/// "h", "v" or "both".
const char* to_string(FlipAxis axis);
/// "naive", "vectorized" or "wide".
const char* to_string(FlipVariant variant);
/// "nearest", "linear", "cubic", "area" or "lanczos".
const char* to_string(ResizeFilter filter);
/// "bilinear" (Direct) or "bilinear_tiled" (Tiled).
const char* to_string(RotateVariant variant);
/// The TransposeVariant named as to_string() writes it.
TransposeVariant transpose_variant_from_name(const std::string& name);
/// The BlockShape named as to_string() writes it.
BlockShape block_shape_from_name(const std::string& name);
/// The FlipAxis named as to_string() writes it.
FlipAxis flip_axis_from_name(const std::string& name);
/// The FlipVariant named as to_string() writes it.
FlipVariant flip_variant_from_name(const std::string& name);
/// The ResizeFilter named as to_string() writes it.
ResizeFilter resize_filter_from_name(const std::string& name);
/// The RotateVariant named as to_string() writes it.
RotateVariant rotate_variant_from_name(const std::string& name);
/// The ResizeVariant named as to_string() writes it.
ResizeVariant resize_variant_from_name(const std::string& name);
///@}

}  // namespace gpufilter
