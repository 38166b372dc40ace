#pragma once
// The two checksums of a PNG file: CRC-32 over each chunk and Adler-32 over the zlib
// stream's uncompressed bytes. libdeflate's versions (carry-less multiply, AVX2) where the
// build found it, else zlib's.
#include <cstddef>
#include <cstdint>

namespace gpufilter::io::png {

std::uint32_t crc32(std::uint32_t crc, const unsigned char* data, std::size_t size);
std::uint32_t adler32(std::uint32_t adler, const unsigned char* data, std::size_t size);
// The Adler-32 of A followed by B, from adler32(A), adler32(B) and B's length.
std::uint32_t adler32_combine(std::uint32_t first, std::uint32_t second, std::size_t second_size);

}  // namespace gpufilter::io::png
