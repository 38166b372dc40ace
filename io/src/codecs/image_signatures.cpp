#include "codecs/image_signatures.hpp"

#include <cstring>

namespace gpufilter::io {
namespace {

bool signature_at(const unsigned char* data, std::size_t size, std::size_t offset, const char* text, std::size_t length) {
  return size >= offset + length && std::memcmp(data + offset, text, length) == 0;
}

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Netpbm (P1-P6), PAM (P7) and PFM (Pf, PF): the letter, the kind, then white space.
const char* netpbm_suffix(const unsigned char* data, std::size_t size) {
  if (size < 3 || data[0] != 'P' || !is_space(data[2])) return "";
  switch (data[1]) {
    case '1':
    case '4': return ".pbm";
    case '2':
    case '5': return ".pgm";
    case '3':
    case '6': return ".ppm";
    case '7': return ".pam";
    case 'f':
    case 'F': return ".pfm";
    default: return "";
  }
}

}  // namespace

std::string image_format_suffix(const unsigned char* data, std::size_t size) {
  const auto has = [&](std::size_t offset, const char* text, std::size_t length) {
    return signature_at(data, size, offset, text, length);
  };
  if (has(0, "\x89PNG\r\n\x1a\n", 8)) return ".png";
  if (has(0, "\xff\xd8\xff", 3)) return ".jpg";
  if (has(0, "II*\0", 4) || has(0, "MM\0*", 4) || has(0, "II+\0", 4) || has(0, "MM\0+", 4)) return ".tif";
  if (has(0, "RIFF", 4) && has(8, "WEBP", 4)) return ".webp";
  if (has(0, "BM", 2)) return ".bmp";
  if (has(0, "\x76\x2f\x31\x01", 4)) return ".exr";
  if (has(0, "#?RGBE", 6) || has(0, "#?RADIANCE", 10)) return ".hdr";
  if (has(0, "\xff\x4f\xff\x51", 4)) return ".j2k";
  if (has(0, "\0\0\0\x0cjP  \r\n\x87\n", 12)) return ".jp2";
  if (has(0, "\x59\xa6\x6a\x95", 4)) return ".ras";
  if (has(128, "DICM", 4)) return ".dcm";
  return netpbm_suffix(data, size);
}

bool starts_like_image(const unsigned char* data, std::size_t size) { return !image_format_suffix(data, size).empty(); }

const char* image_signature_formats() {
  return "PNG, JPEG, TIFF, WebP, BMP, OpenEXR, Radiance HDR, JPEG 2000, Sun raster, DICOM, PNM, PAM or PFM";
}

}  // namespace gpufilter::io
