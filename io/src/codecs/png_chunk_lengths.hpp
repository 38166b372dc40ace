#pragma once
// A PNG file's chunk lengths checked against the file before a codec that trusts them
// sees it. libpng allocates a chunk's buffer from its length field before it reads the
// data, and past its own limit only warns ("chunk data is too large"): a small file whose
// tEXt chunk claims 0x7FFFFFF0 bytes has it allocate and touch that much before the read
// fails at the end of the file, as it must. A length that runs past the end of the file
// can only fail, so the file is refused here without allocating it.
#include <cstddef>
#include <string>

namespace gpufilter::io {

// Walks the chunks from the signature to IEND. Returns why the file cannot be decoded
// where a chunk's length runs past the end of the file or past 2^31 - 1 (the format's
// limit); empty where every length fits, or where `data` is not a PNG file.
std::string png_chunk_length_problem(const unsigned char* data, std::size_t size);

}  // namespace gpufilter::io
