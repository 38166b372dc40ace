// The EXIF orientation reader on an APP1 payload ("Exif\0\0", a TIFF header, IFD0):
// an orientation in 1..8 always, an offset inside the payload, and the tag written as 1
// at that offset reads back as 1.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "gpufilter/io/jpeg_markers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int orientation = gpufilter::io::exif_orientation(data, size);
  if (orientation < 1 || orientation > 8) std::abort();
  bool little = false;
  const std::optional<std::size_t> at = gpufilter::io::exif_orientation_offset(data, size, little);
  if (!at) {
    if (orientation != 1) std::abort();
    return 0;
  }
  if (*at > size || size - *at < 2) std::abort();
  // The tag set to 1 where the offset says, as a run that turns the pixels upright does.
  std::vector<std::uint8_t> upright(data, data + size);
  upright[*at + (little ? 0 : 1)] = 1;
  upright[*at + (little ? 1 : 0)] = 0;
  if (gpufilter::io::exif_orientation(upright.data(), size) != 1) std::abort();
  return 0;
}
