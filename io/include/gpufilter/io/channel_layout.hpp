#pragma once
/// @file
/// The channels IN's file held, where the Mat OpenCV decodes it into does not say.

namespace gpufilter::io {

enum class ChannelLayout {
  AsDecoded,
  GrayAlpha,  // a gray+alpha PNG, decoded as BGRA with B = G = R
};

}  // namespace gpufilter::io
