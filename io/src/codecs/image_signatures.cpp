#include "codecs/image_signatures.hpp"

#include "codecs/codec.hpp"

namespace gpufilter::io {

// Each codec of the table knows its own formats' signatures (Codec::probe).
std::string image_format_suffix(const unsigned char* data, std::size_t size) { return codecs::probe(data, size); }

bool starts_like_image(const unsigned char* data, std::size_t size) { return !image_format_suffix(data, size).empty(); }

const char* image_signature_formats() {
  return "PNG, JPEG, TIFF, WebP, BMP, OpenEXR, Radiance HDR, JPEG 2000, Sun raster, DICOM, PNM, PAM or PFM";
}

}  // namespace gpufilter::io
