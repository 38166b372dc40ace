#pragma once
/// @file
/// How far a kernel's output may stray from the CPU reference. Plain data: nothing here
/// throws or touches a GPU.
#include "gpufilter/filter_spec.hpp"

namespace gpufilter {

/// How far a kernel's output may stray from the CPU reference, per channel sample.
struct Tolerance {
  /// Largest |gpu - reference| accepted for any channel sample.
  double max_abs = 0.0;
  /// Share of channel samples (0..1) that may differ from the reference at all. Integer
  /// outputs computed in float round a value within float error of .5 the other way now
  /// and then; a kernel that truncates instead of rounding is off by one level in about
  /// half of them, within max_abs, and only this bound catches it. (Two samples are
  /// always allowed: a share of a 1x1 image's samples means nothing.)
  double max_differing_share = 1.0;
  /// For 4-channel outputs whose colours the op divided by an alpha it computed from
  /// premultiplied pixels with a mask that can cancel (sharpen, convolve): where that alpha
  /// is small, the division multiplies the sums' float error by up to range / alpha, so a
  /// colour's difference counts times alpha over the range, as the op computed it before
  /// the division. Float outputs are premultiplied again, each by its own image's alpha
  /// (their colours are not clamped, so a colour far beyond the range times a float error
  /// in its alpha would count otherwise); integer outputs, whose alpha is stored rounded,
  /// by the expected alpha (their colours are clamped to the range). Colours of pixels whose
  /// expected alpha is at most kLeastComparedAlpha of the range, twice the threshold below
  /// which colours are 0 (kMinUnpremultiplyAlpha), are not compared: there float error
  /// decides which side of it a pixel falls.
  bool colours_by_alpha = false;
  /// That least compared alpha, as a share of the range.
  static constexpr double kLeastComparedAlpha = 2.0 * kMinUnpremultiplyAlpha;

  /// Exact: no sample may differ.
  Tolerance() = default;
  /// `max_abs_`, with at most `max_differing_share_` of the samples differing at all.
  Tolerance(double max_abs_, double max_differing_share_ = 1.0)  // NOLINT: a bare number means max_abs
      : max_abs(max_abs_), max_differing_share(max_differing_share_) {}
};

}  // namespace gpufilter
