#include "image_signatures.hpp"

#include <cstring>

namespace gpufilter::io {
namespace {

bool signature_at(const unsigned char* data, std::size_t size, std::size_t offset, const char* text, std::size_t length) {
  return size >= offset + length && std::memcmp(data + offset, text, length) == 0;
}

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Netpbm (P1-P6), PAM (P7) and PFM (Pf, PF): the letter, the kind, then white space.
bool netpbm(const unsigned char* data, std::size_t size) {
  if (size < 3 || data[0] != 'P' || !is_space(data[2])) return false;
  return (data[1] >= '1' && data[1] <= '7') || data[1] == 'f' || data[1] == 'F';
}

}  // namespace

bool starts_like_image(const unsigned char* data, std::size_t size) {
  const auto has = [&](std::size_t offset, const char* text, std::size_t length) {
    return signature_at(data, size, offset, text, length);
  };
  return has(0, "\x89PNG\r\n\x1a\n", 8) || has(0, "\xff\xd8\xff", 3) ||            // PNG, JPEG
         has(0, "II*\0", 4) || has(0, "MM\0*", 4) || has(0, "II+\0", 4) ||          // TIFF, BigTIFF
         has(0, "MM\0+", 4) || (has(0, "RIFF", 4) && has(8, "WEBP", 4)) ||          // WebP
         has(0, "BM", 2) || has(0, "\x76\x2f\x31\x01", 4) ||                          // BMP, OpenEXR
         has(0, "#?RGBE", 6) || has(0, "#?RADIANCE", 10) ||                            // Radiance HDR
         has(0, "\xff\x4f\xff\x51", 4) || has(0, "\0\0\0\x0cjP  \r\n\x87\n", 12) ||  // JPEG 2000
         has(0, "\x59\xa6\x6a\x95", 4) || has(128, "DICM", 4) ||                      // Sun raster, DICOM
         netpbm(data, size);
}

const char* image_signature_formats() {
  return "PNG, JPEG, TIFF, WebP, BMP, OpenEXR, Radiance HDR, JPEG 2000, Sun raster, DICOM, PNM, PAM or PFM";
}

}  // namespace gpufilter::io
