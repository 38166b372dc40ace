#pragma once
/// @file
/// Point operations: each output sample depends on the input sample at the same place
/// alone. For invert, brightness, contrast, gamma and levels (image and planar forms):
/// - Preconditions: src and dst are non-empty views of device memory, of equal size and
///   format (or planar images of equal shape, plane by plane), each naturally aligned (a
///   4-channel pixel to its full size), at most 2^30 pixels wide, not overlapping (none
///   runs in place); any pitch, sub-views included. Vectorized falls back to Scalar
///   when the rows of src and dst do not start at the same offset modulo 16 bytes.
/// - Errors: Error(InvalidArgument) for views or parameters that break these rules (the
///   parameters are checked as validate() does), Error(UnsupportedFormat) for a channel
///   count other than 1, 3 or 4, Error(Cuda) when a launch fails. None allocates device
///   memory: the parameters (and the u8 tables, computed on the host) travel as kernel
///   arguments.
/// - Synchronisation: none. The work is enqueued on ctx.stream and the call returns
///   without waiting for it; only ExecContext::sync_after_launch (or
///   GPUFILTER_SYNC_LAUNCHES=1) makes it wait after the launch.
///
/// The other functions here touch no GPU.
///
/// The math, for a sample x of a format whose range is [0, M] (M = 255 for u8, 65535
/// for u16, 1 for f32):
/// ```
///   invert      y = M - x
///   brightness  y = x + v*M            (v in [-1, 1]; integer formats add round(v*M),
///                                       a whole number of levels)
///   contrast    y = (x - M/2)*k + M/2  (k in [0, 10]: 0 flat grey, 1 unchanged)
///   gamma       y = M * (x/M)^(1/g)    (g in [0.05, 20]; g > 1 brightens, as
///                                       ImageMagick's -gamma; x < 0 counts as 0)
///   levels      y = out_lo + (clamp(x, in_lo, in_hi) - in_lo) / (in_hi - in_lo)
///                            * (out_hi - out_lo)
///               (all four bounds as fractions 0..1 of M; in_lo < in_hi; out_lo > out_hi
///                inverts)
/// ```
/// Every result saturates to [0, M] (f32 included) and integer formats round to the
/// nearest level, ties to even (as lrint). invert, brightness and every u8 result are
/// exact (u8 contrast, gamma and levels go through a 256-entry table computed in double
/// precision); u16 and f32 contrast, gamma and levels are computed in float on the GPU
/// and may differ from the double-precision reference by one level (u16) or 1e-5 (f32).
///
/// Channels: the ops touch the channels named in PointChannels and copy the others.
/// By default that is the colour channels: alpha (the 4th channel) is left as it is,
/// as ImageMagick does unless -channel names it.
#include <string>

#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

/// The kernels of the point ops; every point op runs on each of them.
enum class PointVariant {
  Scalar,      ///< one channel sample per thread
  Vectorized,  ///< 16-byte loads and stores, several per thread; bytes at unaligned row ends
};
/// Throws Error(InvalidArgument) naming the choices for an unknown name.
PointVariant point_variant_from_name(const std::string& name);
/// "scalar" or "vectorized"; does not throw.
const char* to_string(PointVariant variant);

/// Which channels a point op changes: bit c for channel c (R = 0, G = 1, B = 2, A = 3
/// in an RGBA image). A gray image's one channel counts as colour.
struct PointChannels {
  unsigned mask = 0x7;  ///< colour channels; alpha kept

  /// R, G and B (0x7): alpha kept.
  static PointChannels colour() { return {0x7}; }
  /// R, G, B and A (0xF).
  static PointChannels all() { return {0xF}; }
  /// Letters from "rgba" (each at most once, any case), as ImageMagick's -channel:
  /// "rgb", "rgba", "a", "gb". Throws Error(InvalidArgument) on other text.
  static PointChannels parse(const std::string& letters);
  /// The channels of a `channels`-channel image that change: bit c of the result for
  /// channel c. For 1-channel images: channel 0 when any of r, g, b is named.
  unsigned mask_for(int channels) const;
};

/// Channels stored one plane after another (SoA), each plane a 1-channel image of the
/// same size, type and pitch. The registry's "planar" layout stacks the planes of an
/// image vertically in one 1-channel image of height h * channels: planar_view() cuts
/// such an image into its planes.
struct PlanarView {
  void* planes[4] = {nullptr, nullptr, nullptr, nullptr};  ///< plane c holds channel c
  int width = 0;           ///< pixels of a row
  int height = 0;          ///< rows of one plane
  std::size_t pitch = 0;   ///< bytes from one row of a plane to the next
  ChannelType type = ChannelType::U8;  ///< every plane's channel type
  int channels = 0;        ///< planes in use: 1, 3 or 4

  /// Plane c as a 1-channel image view; Error(InvalidArgument) unless 0 <= c < channels.
  ImageView plane(int c) const;
};
/// The planes of `stacked`, a 1-channel image of height h * channels whose plane c is
/// rows [c*h, (c+1)*h); no copy. Throws Error(InvalidArgument) when `stacked` is empty,
/// not 1-channel, `channels` is not 1, 3 or 4, or the height does not divide.
PlanarView planar_view(const ImageView& stacked, int channels);

/// brightness(): y = x + value * M.
struct BrightnessParams {
  double value = 0.0;  ///< [-1, 1], a fraction of the range
  PointChannels channels{};  ///< the channels changed; the others are copied
};
/// contrast(): y = (x - M/2) * factor + M/2.
struct ContrastParams {
  double factor = 1.0;  ///< [0, 10]
  PointChannels channels{};  ///< the channels changed; the others are copied
};
/// gamma(): y = M * (x/M)^(1/gamma).
struct GammaParams {
  double gamma = 1.0;  ///< [0.05, 20]
  PointChannels channels{};  ///< the channels changed; the others are copied
};
/// levels(): [in_lo, in_hi] mapped linearly onto [out_lo, out_hi].
struct LevelsParams {
  double in_lo = 0.0, in_hi = 1.0;    ///< fractions of the range, in_lo < in_hi
  double out_lo = 0.0, out_hi = 1.0;  ///< fractions of the range
  PointChannels channels{};  ///< the channels changed; the others are copied
};

/// y = M - x on the channels named (the file's comment states each op's math and rules).
void invert(const ImageView& src, const ImageView& dst, PointChannels channels = {},
            PointVariant variant = PointVariant::Vectorized, const ExecContext& ctx = {});
/// y = x + v*M on the channels named.
void brightness(const ImageView& src, const ImageView& dst, const BrightnessParams& params,
                PointVariant variant = PointVariant::Vectorized, const ExecContext& ctx = {});
/// y = (x - M/2)*k + M/2 on the channels named.
void contrast(const ImageView& src, const ImageView& dst, const ContrastParams& params,
              PointVariant variant = PointVariant::Vectorized, const ExecContext& ctx = {});
/// y = M * (x/M)^(1/g) on the channels named.
void gamma(const ImageView& src, const ImageView& dst, const GammaParams& params,
           PointVariant variant = PointVariant::Vectorized, const ExecContext& ctx = {});
/// The input range [in_lo, in_hi] stretched onto [out_lo, out_hi] on the channels named.
void levels(const ImageView& src, const ImageView& dst, const LevelsParams& params,
            PointVariant variant = PointVariant::Vectorized, const ExecContext& ctx = {});

/// invert() on planar images (plane c is channel c; the channel mask applies per
/// plane). src and dst have equal shape (1, 3 or 4 planes each, a non-zero pitch) and no
/// plane of one overlaps a plane of the other.
void invert(const PlanarView& src, const PlanarView& dst, PointChannels channels = {},
            PointVariant variant = PointVariant::Vectorized, const ExecContext& ctx = {});
/// brightness() on planar images, as the planar invert().
void brightness(const PlanarView& src, const PlanarView& dst, const BrightnessParams& params,
                PointVariant variant = PointVariant::Vectorized, const ExecContext& ctx = {});

/// Throws Error(InvalidArgument) naming the parameter when it is out of range (the ranges
/// in the structs above; the four levels bounds in [0, 1]). No GPU.
void validate(const BrightnessParams& params);
/// As validate(const BrightnessParams&).
void validate(const ContrastParams& params);
/// As validate(const BrightnessParams&).
void validate(const GammaParams& params);
/// As validate(const BrightnessParams&).
void validate(const LevelsParams& params);

}  // namespace gpufilter
