#pragma once
/// @file
/// One zlib stream compressed in parallel, as pigz does: the data comes in strips, each
/// strip is deflated on its own (no history before it) and ends byte-aligned with an empty
/// stored block (Z_FULL_FLUSH), the last one with the final block instead. Laid end to end
/// behind the zlib header, with the Adler-32 of the whole (combined from the strips') at
/// the end, they are one valid stream that any inflater reads in one go; a reader that
/// knows where the strips start could also inflate them side by side.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace gpufilter::io {

/// zlib's deflateTune: the level's match search, overridden (0 in max_chain: the level's own).
struct DeflateTune {
  int good_length = 0;  ///< a match this long already cuts the next search to a quarter
  int max_lazy = 0;     ///< no lazy search past a match this long
  int nice_length = 0;  ///< a match this long ends the search
  int max_chain = 0;    ///< hash chain entries searched at most
};

struct DeflateSettings {
  int level = 1;     ///< zlib's 0 (stored) .. 9
  int strategy = 0;  ///< zlib's Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE
  DeflateTune tune{};
};

/// Fills `bytes` with strip `index`'s uncompressed data (resized by the callee).
using StripSource = std::function<void(std::size_t index, std::vector<std::uint8_t>& bytes)>;

/// The settings for one strip, given its bytes: one, or several to try, each strip keeping
/// the smallest output (strips end byte-aligned, so their settings may differ).
using StripSettings = std::function<std::vector<DeflateSettings>(const std::vector<std::uint8_t>& bytes)>;

/// Deflates `count` (>= 1) strips on up to `threads` threads. Returns the stream in pieces,
/// one per strip, in order: the first starts with the zlib header and the last ends with
/// the Adler-32 trailer; their concatenation is the zlib stream. Throws std::runtime_error
/// when zlib fails (out of memory).
std::vector<std::vector<std::uint8_t>> deflate_strips(std::size_t count, const StripSource& source,
                                                      const StripSettings& settings, unsigned threads);
std::vector<std::vector<std::uint8_t>> deflate_strips(std::size_t count, const StripSource& source,
                                                      const DeflateSettings& settings, unsigned threads);

}  // namespace gpufilter::io
