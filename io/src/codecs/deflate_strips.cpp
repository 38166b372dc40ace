#include "gpufilter/io/deflate_strips.hpp"

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "codecs/parallel_tasks.hpp"
#include "codecs/png_checksums.hpp"

namespace gpufilter::io {
namespace {

// Raw deflate (no zlib wrapper: the strips share one header and trailer), 32 KiB window,
// zlib's default memory level.
constexpr int kRawDeflateWindowBits = -15;
constexpr int kMemoryLevel = 8;

// The zlib header (RFC 1950): CM = 8 (deflate), CINFO = 7 (32 KiB window); FLEVEL says
// what was spent compressing (informative only); FCHECK makes the pair a multiple of 31.
void append_zlib_header(int level, std::vector<std::uint8_t>& out) {
  const unsigned cmf = 0x78;
  const unsigned flevel = level <= 1 ? 0 : level <= 5 ? 1 : level == 6 ? 2 : 3;
  unsigned flg = flevel << 6;
  flg += 31 - (cmf * 256 + flg) % 31;
  out.push_back(static_cast<std::uint8_t>(cmf));
  out.push_back(static_cast<std::uint8_t>(flg));
}

struct CompressedStrip {
  std::vector<std::uint8_t> bytes;
  std::uint32_t adler = 1;
  std::size_t raw_size = 0;
};

void deflate_one(const std::vector<std::uint8_t>& raw, bool last, const DeflateSettings& settings,
                 CompressedStrip& strip) {
  z_stream stream{};
  if (deflateInit2(&stream, settings.level, Z_DEFLATED, kRawDeflateWindowBits, kMemoryLevel, settings.strategy) !=
      Z_OK) {
    throw std::runtime_error("zlib could not start (out of memory)");
  }
  const DeflateTune& tune = settings.tune;
  if (tune.max_chain > 0 &&
      deflateTune(&stream, tune.good_length, tune.max_lazy, tune.nice_length, tune.max_chain) != Z_OK) {
    deflateEnd(&stream);
    throw std::runtime_error("zlib refused the match search settings");
  }
  // deflateBound covers the data and the final block; a full flush adds an empty stored
  // block. Should that still not be room enough, the buffer grows and deflate goes on.
  std::size_t capacity = deflateBound(&stream, static_cast<uLong>(raw.size())) + 64;
  std::vector<std::uint8_t>& out = strip.bytes;
  const std::size_t start = out.size();
  std::size_t produced = 0;
  stream.next_in = const_cast<Bytef*>(raw.data());  // zlib's API predates const
  stream.avail_in = static_cast<uInt>(raw.size());
  for (;;) {
    out.resize(start + capacity);
    stream.next_out = out.data() + start + produced;
    stream.avail_out = static_cast<uInt>(capacity - produced);
    const int status = deflate(&stream, last ? Z_FINISH : Z_FULL_FLUSH);
    produced = capacity - stream.avail_out;
    const bool done = last ? status == Z_STREAM_END : status == Z_OK && stream.avail_in == 0 && stream.avail_out > 0;
    if (done) break;
    if (status != Z_OK && status != Z_BUF_ERROR) {
      deflateEnd(&stream);
      throw std::runtime_error("zlib failed to compress a strip (status " + std::to_string(status) + ")");
    }
    capacity *= 2;
  }
  deflateEnd(&stream);
  out.resize(start + produced);
  strip.adler = png::adler32(1, raw.data(), raw.size());
  strip.raw_size = raw.size();
}

}  // namespace

std::vector<std::vector<std::uint8_t>> deflate_strips(std::size_t count, const StripSource& source,
                                                      const DeflateSettings& settings, unsigned threads) {
  return deflate_strips(
      count, source, [&settings](const std::vector<std::uint8_t>&) { return std::vector<DeflateSettings>{settings}; },
      threads);
}

std::vector<std::vector<std::uint8_t>> deflate_strips(std::size_t count, const StripSource& source,
                                                      const StripSettings& settings, unsigned threads) {
  std::vector<CompressedStrip> strips(count);
  if (count == 0) return {};
  run_tasks(count, threads, [&](std::size_t index) {
    // Kept from strip to strip on each thread: fresh 1 MiB buffers cost page faults.
    static thread_local std::vector<std::uint8_t> raw;
    source(index, raw);
    // One deflate call takes at most 4 GiB; strips are a few MiB.
    if (raw.size() > std::numeric_limits<uInt>::max() / 2) throw std::runtime_error("a strip is too large for zlib");
    const std::vector<DeflateSettings> candidates = settings(raw);
    if (candidates.empty()) throw std::invalid_argument("no deflate settings for a strip");
    CompressedStrip& strip = strips[index];
    for (const DeflateSettings& candidate : candidates) {
      CompressedStrip trial;
      if (index == 0) append_zlib_header(candidate.level, trial.bytes);
      deflate_one(raw, index + 1 == count, candidate, trial);
      if (strip.bytes.empty() || trial.bytes.size() < strip.bytes.size()) strip = std::move(trial);
    }
  });
  std::uint32_t adler = strips[0].adler;
  for (std::size_t i = 1; i < count; ++i) adler = png::adler32_combine(adler, strips[i].adler, strips[i].raw_size);
  std::vector<std::vector<std::uint8_t>> pieces;
  pieces.reserve(count);
  for (CompressedStrip& strip : strips) pieces.push_back(std::move(strip.bytes));
  for (int shift = 24; shift >= 0; shift -= 8) pieces.back().push_back(static_cast<std::uint8_t>(adler >> shift));
  return pieces;
}

}  // namespace gpufilter::io
