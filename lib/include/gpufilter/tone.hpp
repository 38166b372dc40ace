#pragma once
/// @file
/// Tone operations that run a reduction first: a histogram, then a lookup table built
/// from it on the GPU, then the table applied, all on ctx.stream with no copy of the
/// histogram to the host. u8 images with 1, 3 or 4 channels; the fourth channel (alpha)
/// is copied unchanged.
///
/// For equalize, threshold and normalize:
/// - Preconditions: src and dst are non-empty views of device memory, of equal size and
///   format (u8, 1, 3 or 4 channels), each naturally aligned (a 4-channel pixel to its
///   full size), at most 2^30 pixels wide, not overlapping (none runs in place); any
///   pitch, sub-views included.
/// - Errors: Error(InvalidArgument) for views or parameters that break these rules,
///   Error(UnsupportedFormat) for a format other than u8 with 1, 3 or 4 channels,
///   Error(OutOfMemory) when the scratch memory (histogram and tables) cannot be had,
///   Error(Cuda) when a launch fails. After an error dst is unspecified.
/// - Synchronisation: none. The histogram, the tables and the output are computed on the
///   GPU; scratch memory is taken from the library's stream-ordered pool and given
///   back with cudaFreeAsync on ctx.stream, which do not wait, and nothing is copied to or from the host. Only
///   ExecContext::sync_after_launch (or GPUFILTER_SYNC_LAUNCHES=1) makes a call wait
///   after each launch.
#include "gpufilter/image_view.hpp"
#include "gpufilter/statistics.hpp"
#include "gpufilter/stream.hpp"
#include "gpufilter/tone_types.hpp"

namespace gpufilter {

/// Equalizes src's histogram into dst, as EqualizeParams says.
void equalize(const ImageView& src, const ImageView& dst, const EqualizeParams& params = {},
              HistogramVariant variant = HistogramVariant::LanePrivate, const ExecContext& ctx = {});

/// Thresholds src into dst, as ThresholdParams says.
void threshold(const ImageView& src, const ImageView& dst, const ThresholdParams& params = {},
               HistogramVariant variant = HistogramVariant::LanePrivate, const ExecContext& ctx = {});

/// Stretches each colour channel of src into dst, as NormalizeParams says.
void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& params = {},
               HistogramVariant variant = HistogramVariant::LanePrivate, const ExecContext& ctx = {});

namespace reference {
/// @name The tone ops' CPU references
/// src and dst in host memory, touching no GPU. src and dst must be
/// non-empty and of equal size and format (Error(InvalidArgument) otherwise), u8
/// (Error(UnsupportedFormat) otherwise). They do not check overlap or the parameters'
/// ranges.
///@{
/// gpufilter::equalize on host images.
void equalize(const ImageView& src, const ImageView& dst, const EqualizeParams& params);
/// gpufilter::threshold on host images.
void threshold(const ImageView& src, const ImageView& dst, const ThresholdParams& params);
/// gpufilter::normalize on host images.
void normalize(const ImageView& src, const ImageView& dst, const NormalizeParams& params);
/// The threshold Otsu's method picks for a 256-bin histogram of `pixels` samples
/// (host memory; no checks).
int otsu_threshold(const unsigned long long* histogram, unsigned long long pixels);
///@}
}  // namespace reference

}  // namespace gpufilter
