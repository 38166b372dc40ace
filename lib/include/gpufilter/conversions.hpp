#pragma once
/// @file
/// Conversions: ops whose output has another pixel format or layout than their input.
/// For gray, add_alpha, drop_alpha, swap_channels, convert_depth, to_planar and
/// to_interleaved:
/// - Preconditions: src and dst are non-empty views of device memory, of equal size,
///   dst in the format the op names (the registry's output_shape says the same); each
///   view (each plane of a PlanarView) naturally aligned on its own (a 4-channel pixel
///   to its full size), not overlapping the other side (none runs in place); any
///   pitch, sub-views included. The ops on two ImageViews also refuse images wider
///   than 2^30 pixels.
/// - Errors: Error(InvalidArgument) for views, channel counts or variants that break
///   these rules (the message names the op and the expected destination),
///   Error(UnsupportedFormat) for a channel count other than 1, 3 or 4, Error(Cuda)
///   when a launch fails. None allocates device memory.
/// - Synchronisation: none. The work is enqueued on ctx.stream and the call returns
///   without waiting for it; only ExecContext::sync_after_launch (or
///   GPUFILTER_SYNC_LAUNCHES=1) makes it wait after the launch.
///
/// The name functions and ChannelOrder::parse touch no GPU.
///
/// Colour images hold their channels in R, G, B order, alpha last. Integer results
/// round to the nearest level, ties to even, and saturate to the format's range
/// ([0, M]: M = 255, 65535, or 1 for f32).
#include <string>

#include "gpufilter/conversion_types.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/point_ops.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

/// Throws Error(InvalidArgument) naming the choices for an unknown name.
ConversionVariant conversion_variant_from_name(const std::string& name);
/// The variant's name, as conversion_variant_from_name() takes it; does not throw.
const char* to_string(ConversionVariant variant);

// ---- gray --------------------------------------------------------------------------
/// "bt601" or "bt709"; throws Error(InvalidArgument) naming the choices otherwise.
GrayWeights gray_weights_from_name(const std::string& name);
/// "bt601" or "bt709"; does not throw.
const char* to_string(GrayWeights weights);
/// Colour to gray with `weights`. src: 3 or 4 channels; dst: 1 channel of src's type.
void gray(const ImageView& src, const ImageView& dst, GrayWeights weights = GrayWeights::Bt601,
          ConversionVariant variant = ConversionVariant::Vec16Warp, const ExecContext& ctx = {});

// ---- alpha -------------------------------------------------------------------------
/// src 3 channels, dst 4 of the same type: colour copied, alpha opaque (M). Exact.
void add_alpha(const ImageView& src, const ImageView& dst,
               ConversionVariant variant = ConversionVariant::Vec16Warp, const ExecContext& ctx = {});
/// src 4 channels, dst 3 of the same type: the colour channels. Exact.
void drop_alpha(const ImageView& src, const ImageView& dst,
                ConversionVariant variant = ConversionVariant::Vec16Warp, const ExecContext& ctx = {});

// ---- channel order -----------------------------------------------------------------
/// Reorders the channels as `order` says. src and dst of one format (3 or 4 channels);
/// order.channels must equal the channel count (Error(InvalidArgument) otherwise). Exact.
void swap_channels(const ImageView& src, const ImageView& dst, const ChannelOrder& order,
                   ConversionVariant variant = ConversionVariant::Vec16Warp, const ExecContext& ctx = {});

// ---- depth -------------------------------------------------------------------------
/// y = sat(round(x * M_dst / M_src)) to dst's channel type (the channel counts match):
/// u8 to u16 multiplies by 257, u16 to u8 rounds x/257, integers to f32 divide by M,
/// f32 to integers clamp to [0, 1] and scale. Exact: every result is the correctly
/// rounded value of the formula (float results included). dst has src's size and
/// channel count; any channel type, its own included.
void convert_depth(const ImageView& src, const ImageView& dst,
                   ConversionVariant variant = ConversionVariant::Vec16Warp, const ExecContext& ctx = {});

// ---- layout ------------------------------------------------------------------------
/// Interleaved (AoS) to planar (SoA) and back: plane c holds channel c. Exact.
/// The registry writes a planar image as a 1-channel image of height h * channels with
/// plane c in rows [c*h, (c+1)*h): see planar_view() in point_ops.hpp.
/// The interleaved side has 3 or 4 channels; the planar side as many planes, of its
/// type and size.
void to_planar(const ImageView& src, const PlanarView& dst, ConversionVariant variant = ConversionVariant::Vec16Warp,
               const ExecContext& ctx = {});
/// Planar (SoA) back to interleaved (AoS), as to_planar() with the sides swapped. Exact.
void to_interleaved(const PlanarView& src, const ImageView& dst,
                    ConversionVariant variant = ConversionVariant::Vec16Warp,
                    const ExecContext& ctx = {});

}  // namespace gpufilter
