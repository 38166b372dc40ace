#pragma once
/// @file
/// The conversions' parameter types and kernel choices (conversions.hpp has the ops).
/// Plain types: the kernels see these, never the ops' declarations.
#include <string>

namespace gpufilter {

/// The library's conversion kernels; the lab has two more (staged: a row segment through
/// shared memory; vec16: vec16_warp without the warp's stage).
enum class ConversionVariant {
  Pixel,      ///< one pixel per thread
  Unroll4,    ///< four pixels per thread, all loaded before any is stored
  Vec16Warp,  ///< 8-bit images: 16 pixels per thread, every global access 16 bytes wide, 3-
              ///< and 4-byte pixel sides regrouped through shared memory so that a warp's
              ///< global instructions are contiguous (the default); rows not starting at
              ///< 16-byte boundaries and other types run Unroll4
};

/// The luminance weights of gray(): y = wr*R + wg*G + wb*B, alpha dropped: BT.601
/// (0.299, 0.587, 0.114), as cv::cvtColor's RGB2GRAY, or BT.709 (0.2126, 0.7152,
/// 0.0722). Computed in float on the GPU: integer results may differ from the
/// double-precision reference by one level where the sum lies within float error of .5,
/// f32 results by 1e-6.
enum class GrayWeights { Bt601, Bt709 };

/// Output channel i is input channel from[i].
struct ChannelOrder {
  int from[4] = {0, 1, 2, 3};  ///< the input channel of each output channel
  int channels = 0;            ///< 3 or 4: the image's channel count
  /// `letters` is a permutation of the input's channels, "bgr" or "bgra" style: of rgb
  /// for 3 channels, of rgba for 4, or of rgb for 4 (alpha kept last). Empty: red and
  /// blue swapped. Throws Error(InvalidArgument) on anything else.
  static ChannelOrder parse(const std::string& letters, int channels);
};

}  // namespace gpufilter
