#pragma once
// Whether filtered PNG rows repeat at a distance (screenshots, scans, tiled textures): run-
// length matching (Z_RLE), the fast choice for photos, finds repeats at distance 1 only,
// so such data needs zlib's full match search, which on noisy photos costs more time for
// a larger file. A sample is enough to tell the two apart.
#include <cstddef>
#include <cstdint>

namespace gpufilter::io {

// The share (0..1) of the first `sample` bytes of `data` whose next 32 bytes, not
// starting with a run of 8 (runs are left to Z_RLE), occurred within the 32 KiB before
// them (at the position last seen with the same first 8 bytes, as zlib's hash chains).
double distant_repeat_share(const std::uint8_t* data, std::size_t size, std::size_t sample);

}  // namespace gpufilter::io
