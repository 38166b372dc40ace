#include "codecs/png_checksums.hpp"

#include <zlib.h>

#include <algorithm>
#include <limits>

#ifdef GPUFILTER_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

namespace gpufilter::io::png {
#ifndef GPUFILTER_HAVE_LIBDEFLATE
namespace {

// zlib takes uInt lengths: feed it in pieces that fit.
constexpr std::size_t kZlibPiece = std::size_t{1} << 30;

}  // namespace
#endif

std::uint32_t crc32(std::uint32_t crc, const unsigned char* data, std::size_t size) {
#ifdef GPUFILTER_HAVE_LIBDEFLATE
  return libdeflate_crc32(crc, data, size);
#else
  for (std::size_t done = 0; done < size; done += kZlibPiece) {
    const std::size_t piece = std::min(kZlibPiece, size - done);
    crc = static_cast<std::uint32_t>(::crc32(crc, data + done, static_cast<uInt>(piece)));
  }
  return crc;
#endif
}

std::uint32_t adler32(std::uint32_t adler, const unsigned char* data, std::size_t size) {
#ifdef GPUFILTER_HAVE_LIBDEFLATE
  return libdeflate_adler32(adler, data, size);
#else
  for (std::size_t done = 0; done < size; done += kZlibPiece) {
    const std::size_t piece = std::min(kZlibPiece, size - done);
    adler = static_cast<std::uint32_t>(::adler32(adler, data + done, static_cast<uInt>(piece)));
  }
  return adler;
#endif
}

std::uint32_t adler32_combine(std::uint32_t first, std::uint32_t second, std::size_t second_size) {
  // zlib's z_off_t is at least 32 bits; a strip is far smaller than that.
  return static_cast<std::uint32_t>(::adler32_combine(first, second, static_cast<z_off_t>(second_size)));
}

}  // namespace gpufilter::io::png
