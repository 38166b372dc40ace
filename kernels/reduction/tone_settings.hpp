#pragma once
// What each tone op asks of launch_tone (reduction_launch.hpp), from its public
// parameters: the library's ops (lib/src/tone/tone_gpu.cpp) and the lab's runs of them
// make their settings here. Plain C++, host only.
#include "gpufilter/tone_types.hpp"
#include "reduction_launch.hpp"  // same folder: included from the library and the lab

namespace gpufilter::kernels {

inline ToneSettings equalize_settings(const EqualizeParams& params) {
  ToneSettings settings;
  settings.mode = params.per_channel ? ToneMode::EqualizeChannels : ToneMode::EqualizeLuma;
  return settings;
}

inline ToneSettings threshold_settings(const ThresholdParams& params) {
  ToneSettings settings;
  settings.mode = params.otsu ? ToneMode::ThresholdOtsu : ToneMode::ThresholdValue;
  settings.threshold = params.value;
  return settings;
}

// `pixels`: the image's width * height, which the clip percentage is of.
inline ToneSettings normalize_settings(const NormalizeParams& params, double pixels) {
  ToneSettings settings;
  settings.mode = ToneMode::Normalize;
  settings.clip_count = params.clip_percent / 100.0 * pixels;
  return settings;
}

}  // namespace gpufilter::kernels
