#pragma once
// Repairs for two faults of Exiv2 0.27 (Debian 12's) in the files it writes, applied to
// its output by the codec of the format (Codec::mend_written_metadata). Each leaves a file
// without the fault unchanged.
#include <vector>

namespace gpufilter::io {

// Exiv2 writes an ICC profile into a simple WebP (one without a VP8X header before the
// write) as a chunk named "VP8X" instead of "ICCP": renames a VP8X chunk that is not the
// first chunk.
void fix_webp_icc_chunk_name(std::vector<unsigned char>& webp);

// Exiv2 writes a PNG's iCCP chunk with the profile name of the file it opened, which for
// a file without a profile is empty; PNG requires 1 to 79 characters, and libpng drops
// such a profile. Names an unnamed profile "ICC Profile" (the chunk's CRC made anew).
void name_png_icc_profile(std::vector<unsigned char>& png);

}  // namespace gpufilter::io
