#pragma once
// Tuning values read from the environment (GPUFILTER_JPEG_BATCH and the like), so that
// one build can be timed at several settings.
#include <cstdlib>

namespace gpufilter::io {

// `name`'s value as a number in [low, high]; `fallback` when unset or not such a number.
inline double environment_number(const char* name, double low, double high, double fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (*end != '\0' || !(value >= low && value <= high)) return fallback;
  return value;
}

// Whether `name` is set to anything at all.
inline bool environment_has(const char* name) {
  const char* text = std::getenv(name);
  return text != nullptr && *text != '\0';
}

}  // namespace gpufilter::io
