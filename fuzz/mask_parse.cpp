// parse_mask on arbitrary text (convolve --kernel, --kernel-file): a mask it accepts is
// odd-sized, within the size limit, has rows x cols finite weights, and reads back the same
// from its numbers written out again.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "gpufilter/error.hpp"
#include "gpufilter/filters.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gpufilter::Mask mask;
  try {
    mask = gpufilter::parse_mask(text);
  } catch (const gpufilter::Error& error) {
    if (error.code() != gpufilter::ErrorCode::InvalidArgument) std::abort();
    return 0;
  }
  if (mask.width < 1 || mask.height < 1 || mask.width % 2 == 0 || mask.height % 2 == 0 ||
      mask.width > gpufilter::ConvolveParams::kMaxSize || mask.height > gpufilter::ConvolveParams::kMaxSize ||
      mask.weights.size() != static_cast<std::size_t>(mask.width) * static_cast<std::size_t>(mask.height))
    std::abort();
  std::ostringstream again;
  again.precision(9);  // enough digits for a float to read back exactly
  for (int y = 0; y < mask.height; ++y) {
    for (int x = 0; x < mask.width; ++x) {
      const float w = mask.weights[static_cast<std::size_t>(y * mask.width + x)];
      if (!std::isfinite(w)) std::abort();
      again << w << ' ';
    }
    again << ";";
  }
  const gpufilter::Mask reread = gpufilter::parse_mask(again.str());
  if (reread.width != mask.width || reread.height != mask.height || reread.weights != mask.weights) std::abort();
  return 0;
}
