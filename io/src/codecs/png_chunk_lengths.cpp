#include "codecs/png_chunk_lengths.hpp"

#include <algorithm>
#include <cstring>

#include "gpufilter/io/png_reader.hpp"
#include "codecs/png_format.hpp"

namespace gpufilter::io {
namespace {

// "tEXt", or "a chunk" where the type is not four letters (damage the decoder reports).
std::string chunk_name(const unsigned char* type) {
  const bool letters = std::all_of(type, type + 4, [](unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
  });
  return letters ? "its " + std::string(reinterpret_cast<const char*>(type), 4) + " chunk" : "a chunk";
}

}  // namespace

std::string png_chunk_length_problem(const unsigned char* data, std::size_t size) {
  if (!looks_like_png(data, size)) return {};
  std::size_t pos = png::kSignature.size();
  // A chunk: length (4 bytes), type (4), data, CRC (4). A file that ends between chunks
  // or inside a chunk's header is left to the decoder, which reads no further.
  while (size - pos >= 8) {
    const std::uint32_t length = png::load_big_endian_32(data + pos);
    const unsigned char* type = data + pos + 4;
    const std::size_t left = size - pos - 8;
    if (length > png::kMaxChunkLength) {
      return chunk_name(type) + " says " + std::to_string(length) + " bytes, more than a PNG chunk may hold";
    }
    if (std::size_t{length} > left) {
      return chunk_name(type) + " says " + std::to_string(length) + " bytes, but the file ends " +
             std::to_string(left) + " bytes later";
    }
    if (std::memcmp(type, "IEND", 4) == 0) break;
    pos += 8 + std::size_t{length} + std::min<std::size_t>(4, left - length);  // the CRC, where it is there
  }
  return {};
}

}  // namespace gpufilter::io
