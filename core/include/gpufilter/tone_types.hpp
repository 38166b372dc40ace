#pragma once
/// @file
/// The tone ops' parameters, and what each op computes from them (tone.hpp has the
/// ops). Plain types: the kernels see these, never the ops' declarations.
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

/// Binary threshold per colour channel: dst = src > T ? 255 : 0 (cv::THRESH_BINARY with
/// maxval 255). otsu: T per channel from the histogram by Otsu's method, computed as
/// cv::threshold(THRESH_OTSU) does (same arithmetic, same ties: the first best T).
/// value outside [0, 255]: Error(InvalidArgument) (checked with otsu too).
struct ThresholdParams {
  int value = 128;    ///< T, unless otsu
  bool otsu = false;  ///< T per channel by Otsu's method
};

/// Contrast stretch per colour channel: lo = the smallest value v with more than
/// clip_count samples <= v, hi = the largest v with more than clip_count samples >= v,
/// clip_count = clip_percent / 100 * pixels (clip 0: the minimum and maximum);
/// dst = 0 at or below lo, 255 at or above hi, in between (255 (v - lo) / (hi - lo))
/// rounded half up. A channel with hi <= lo is copied.
struct NormalizeParams {
  double clip_percent = 0.0;  ///< [0, 50); otherwise Error(InvalidArgument)
};

}  // namespace gpufilter
