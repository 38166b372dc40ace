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

namespace gpufilter {

/// Histogram equalization. Gray: exactly cv::equalizeHist: with h the histogram, i0 the
/// first non-empty bin and N the pixel count, lut[v] = 0 for v <= i0 and otherwise
/// `saturate(rint(float(h[i0+1] + ... + h[v]) * (255.f / float(N - h[i0]))))` in float
/// arithmetic, round half to even; an image of one value stays as it is.
/// Colour, by default: the luminance `Y = (77 c0 + 150 c1 + 29 c2 + 128) >> 8` (BT.601
/// weights for channels in R, G, B order, the library's order) is equalized
/// with the same table, and every colour channel moves by lut[Y] - Y, saturated. That is
/// converting to YCrCb, equalizing Y and converting back, without rounding the chroma.
/// per_channel: each colour channel equalized alone, like cv::equalizeHist per plane.
struct EqualizeParams {
  bool per_channel = false;  ///< each colour channel alone instead of the luminance
};
/// Equalizes src's histogram into dst, as EqualizeParams says.
void equalize(const ImageView& src, const ImageView& dst, const EqualizeParams& params = {},
              HistogramVariant variant = HistogramVariant::LanePrivate, const ExecContext& ctx = {});

/// Binary threshold per colour channel: dst = src > T ? 255 : 0 (cv::THRESH_BINARY with
/// maxval 255). otsu: T per channel from the histogram by Otsu's method, computed as
/// cv::threshold(THRESH_OTSU) does (same arithmetic, same ties: the first best T).
/// value outside [0, 255]: Error(InvalidArgument) (checked with otsu too).
struct ThresholdParams {
  int value = 128;    ///< T, unless otsu
  bool otsu = false;  ///< T per channel by Otsu's method
};
/// Thresholds src into dst, as ThresholdParams says.
void threshold(const ImageView& src, const ImageView& dst, const ThresholdParams& params = {},
               HistogramVariant variant = HistogramVariant::LanePrivate, const ExecContext& ctx = {});

/// Contrast stretch per colour channel: lo = the smallest value v with more than
/// clip_count samples <= v, hi = the largest v with more than clip_count samples >= v,
/// clip_count = clip_percent / 100 * pixels (clip 0: the minimum and maximum);
/// dst = 0 at or below lo, 255 at or above hi, in between (255 (v - lo) / (hi - lo))
/// rounded half up. A channel with hi <= lo is copied.
struct NormalizeParams {
  double clip_percent = 0.0;  ///< [0, 50); otherwise Error(InvalidArgument)
};
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
