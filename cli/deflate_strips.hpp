#pragma once
// One zlib stream compressed in parallel, as pigz does: the data comes in strips, each
// strip is deflated on its own (no history before it) and ends byte-aligned with an empty
// stored block (Z_FULL_FLUSH), the last one with the final block instead. Laid end to end
// behind the zlib header, with the Adler-32 of the whole (combined from the strips') at
// the end, they are one valid stream that any inflater reads in one go; a reader that
// knows where the strips start could also inflate them side by side.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace gpufilter::cli {

struct DeflateSettings {
  int level = 1;     // zlib's 0 (stored) .. 9
  int strategy = 0;  // zlib's Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE
};

// Fills `bytes` with strip `index`'s uncompressed data (resized by the callee).
using StripSource = std::function<void(std::size_t index, std::vector<std::uint8_t>& bytes)>;

// Deflates `count` (>= 1) strips on up to `threads` threads. Returns the stream in pieces,
// one per strip, in order: the first starts with the zlib header and the last ends with
// the Adler-32 trailer; their concatenation is the zlib stream. Throws std::runtime_error
// when zlib fails (out of memory).
std::vector<std::vector<std::uint8_t>> deflate_strips(std::size_t count, const StripSource& source,
                                                      const DeflateSettings& settings, unsigned threads);

}  // namespace gpufilter::cli
