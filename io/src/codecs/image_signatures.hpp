#pragma once
// Whether bytes start like a file of a format the tool can decode: the signatures that
// OpenCV's decoders (and the tool's own PNG and JPEG readers) look for, so that an input
// read once from a pipe is refused from its first bytes rather than after all of it.
// The codecs of the table answer, each for its formats (codec.hpp, Codec::probe).
#include <cstddef>
#include <string>

namespace gpufilter::io {

// Bytes that settle the question: the longest signature ends there (DICOM's "DICM" at
// offset 128). A shorter input is judged on what it has.
inline constexpr std::size_t kImageSignatureBytes = 132;

// The suffix of the format whose signature `data` starts with (".png", ".jpg", ".tif",
// ".webp", ".bmp", ".exr", ".hdr", ".j2k", ".jp2", ".ras", ".dcm", ".pbm", ".pgm", ".ppm",
// ".pam", ".pfm"); empty for none. `data`: the first min(size of the input,
// kImageSignatureBytes) bytes.
std::string image_format_suffix(const unsigned char* data, std::size_t size);

// Whether `data` starts like any of those.
bool starts_like_image(const unsigned char* data, std::size_t size);

// "PNG, JPEG, TIFF, ...": the formats recognised, for messages.
const char* image_signature_formats();

}  // namespace gpufilter::io
