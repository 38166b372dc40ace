// decode_png on arbitrary bytes. A PNG's chunks carry CRCs and its zlib stream an
// Adler-32, so nearly every blind mutation would stop at a checksum: the custom mutator
// below mutates the file, or its inflated rows, or its header fields, and then writes
// valid checksums again, so that the real reader (checks included) sees the damage.
// Whatever the decoder accepts must match the header and OpenCV's decode of the file;
// what it declines goes the tool's way for such files (chunk lengths, then libpng), and
// whatever libpng decodes without damage must match OpenCV's decode too.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "codecs/png_chunk_lengths.hpp"
#include "codecs/png_format.hpp"
#include "codecs/png_libpng_reader.hpp"
#include "gpufilter/io/png_reader.hpp"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

using gpufilter::io::png::load_big_endian_32;
using gpufilter::io::png::store_big_endian_32;
using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kSignatureSize = 8;
struct ChunkAt {
  std::size_t offset;  // of the length field
  std::uint32_t length;
};

// The chunks that lie wholly inside the data, in order.
std::vector<ChunkAt> chunks_of(const std::uint8_t* data, std::size_t size) {
  std::vector<ChunkAt> chunks;
  std::size_t pos = kSignatureSize;
  while (size >= 12 && pos <= size - 12) {
    const std::uint32_t length = load_big_endian_32(data + pos);
    if (length > size - pos - 12) break;
    chunks.push_back({pos, length});
    pos += 12 + std::size_t{length};
  }
  return chunks;
}

void fix_crcs(std::uint8_t* data, std::size_t size) {
  for (const ChunkAt& c : chunks_of(data, size)) {
    const uLong crc = crc32(0, data + c.offset + 4, c.length + 4);
    store_big_endian_32(static_cast<std::uint32_t>(crc), data + c.offset + 8 + c.length);
  }
}

bool is_type(const std::uint8_t* data, const ChunkAt& c, const char* type) {
  return std::memcmp(data + c.offset + 4, type, 4) == 0;
}

void append_chunk(Bytes& out, const char* type, const std::uint8_t* payload, std::size_t length) {
  std::uint8_t word[4];
  store_big_endian_32(static_cast<std::uint32_t>(length), word);
  out.insert(out.end(), word, word + 4);
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), payload, payload + length);
  out.insert(out.end(), 4, 0);  // the CRC, written by fix_crcs
}

// Inflates up to 4 MB of a zlib stream, as far as it is intact.
Bytes inflate_some(const Bytes& in) {
  Bytes out(std::max<std::size_t>(in.size() * 4, 1024));
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return {};
  z.next_in = const_cast<Bytef*>(in.data());
  z.avail_in = static_cast<uInt>(in.size());
  std::size_t done = 0;
  for (;;) {
    z.next_out = out.data() + done;
    z.avail_out = static_cast<uInt>(out.size() - done);
    const int status = inflate(&z, Z_NO_FLUSH);
    done = out.size() - z.avail_out;
    if (status != Z_OK || z.avail_out != 0 || out.size() >= (std::size_t{4} << 20)) break;
    out.resize(out.size() * 2);
  }
  inflateEnd(&z);
  out.resize(done);
  return out;
}

// The IDAT data inflated, mutated and deflated again, at a level the seed picks, in one
// or two IDAT chunks; the other chunks stay. 0 when the file has no IDAT or it grows too big.
std::size_t mutate_rows(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed) {
  const std::vector<ChunkAt> chunks = chunks_of(data, size);
  Bytes idat;
  for (const ChunkAt& c : chunks)
    if (is_type(data, c, "IDAT")) idat.insert(idat.end(), data + c.offset + 8, data + c.offset + 8 + c.length);
  if (idat.empty()) return 0;
  Bytes rows = inflate_some(idat);
  const std::size_t used = rows.size();
  rows.resize(used + used / 4 + 64);
  rows.resize(LLVMFuzzerMutate(rows.data(), used, rows.size()));
  Bytes packed(compressBound(static_cast<uLong>(rows.size())));
  uLongf packed_size = static_cast<uLongf>(packed.size());
  if (compress2(packed.data(), &packed_size, rows.data(), static_cast<uLong>(rows.size()),
                static_cast<int>(seed % 10)) != Z_OK)
    return 0;
  packed.resize(packed_size);

  Bytes out(data, data + kSignatureSize);
  bool written = false;
  for (const ChunkAt& c : chunks) {
    if (is_type(data, c, "IDAT")) {
      if (written) continue;
      written = true;
      const std::size_t split = (seed & 16) ? packed.size() / 2 : packed.size();
      append_chunk(out, "IDAT", packed.data(), split);
      if (split < packed.size()) append_chunk(out, "IDAT", packed.data() + split, packed.size() - split);
    } else {
      out.insert(out.end(), data + c.offset, data + c.offset + 12 + c.length);
    }
  }
  if (out.size() > max_size) return 0;
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

// One IHDR field set to a value the decoder branches on.
void mutate_header(std::uint8_t* data, std::size_t size, unsigned seed) {
  const std::vector<ChunkAt> chunks = chunks_of(data, size);
  if (chunks.empty() || chunks[0].length < 13) return;
  std::uint8_t* ihdr = data + chunks[0].offset + 8;
  static constexpr std::uint32_t kSides[] = {0, 1, 2, 3, 7, 8, 15, 16, 17, 255, 0x10000, 0x7fffffff, 0x80000000};
  static constexpr std::uint8_t kDepths[] = {1, 2, 4, 8, 16, 0, 32};
  static constexpr std::uint8_t kColours[] = {0, 2, 3, 4, 6, 1, 7};
  const unsigned pick = (seed >> 3) % 16;
  switch (seed % 6) {
    case 0: store_big_endian_32(kSides[pick % std::size(kSides)], ihdr); break;
    case 1: store_big_endian_32(kSides[pick % std::size(kSides)], ihdr + 4); break;
    case 2: ihdr[8] = kDepths[pick % std::size(kDepths)]; break;
    case 3: ihdr[9] = kColours[pick % std::size(kColours)]; break;
    case 4: ihdr[10 + pick % 3] = static_cast<std::uint8_t>(pick & 1); break;
    default: store_big_endian_32(load_big_endian_32(ihdr) + (pick & 1 ? 1 : -1), ihdr); break;
  }
}

// zlib's complaint about the file's IDAT stream, or "" where zlib inflates it whole.
std::string zlib_complaint(const std::uint8_t* data, std::size_t size) {
  Bytes idat;
  for (const ChunkAt& c : chunks_of(data, size))
    if (is_type(data, c, "IDAT")) idat.insert(idat.end(), data + c.offset + 8, data + c.offset + 8 + c.length);
  z_stream z{};
  if (inflateInit(&z) != Z_OK) std::abort();
  Bytes out(1 << 16);
  z.next_in = idat.data();
  z.avail_in = static_cast<uInt>(idat.size());
  int status = Z_OK;
  while (status == Z_OK) {
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    status = inflate(&z, Z_NO_FLUSH);
  }
  std::string complaint = status == Z_STREAM_END ? "" : z.msg != nullptr ? z.msg : "cut short";
  inflateEnd(&z);
  return complaint;
}

// libdeflate, which the reader inflates with, takes the reserved symbols of deflate's
// codes (lengths 286 and 287, distances 30 and 31) where zlib, and so OpenCV's libpng,
// rejects the stream: the one way the two may disagree on a file.
bool reserved_deflate_symbols(const std::uint8_t* data, std::size_t size) {
  const std::string complaint = zlib_complaint(data, size);
  return complaint == "invalid literal/length code" || complaint == "invalid distance code";
}

int expected_channels(std::uint8_t colour) {
  switch (colour) {
    case 0: return 1;
    case 2: return 3;
    default: return 4;  // gray+alpha comes out as 4 channels, as OpenCV gives it
  }
}

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  std::size_t result = 0;
  switch (seed % 4) {
    case 0: result = mutate_rows(data, size, max_size, seed >> 2); break;
    case 1: mutate_header(data, size, seed >> 2); result = size; break;
    default: break;
  }
  if (result == 0) result = LLVMFuzzerMutate(data, size, max_size);
  fix_crcs(data, result);
  return result;
}

namespace {

// Small enough that every image decodes quickly, large enough for every kind of file.
constexpr std::uint64_t kFallbackMaxPixels = std::uint64_t{1} << 18;

// A declined file as the tool reads it: refused where a chunk's length runs past the end
// (OpenCV would allocate it first), else through libpng, which gives an image or says
// why not, and an image only where OpenCV gives the same.
void check_declined(const std::uint8_t* data, std::size_t size) {
  if (!gpufilter::io::png_chunk_length_problem(data, size).empty()) return;
  const gpufilter::io::LibpngDecodeResult read = gpufilter::io::decode_png_with_libpng(data, size, kFallbackMaxPixels);
  if (read.image.empty() == read.damage.empty()) std::abort();  // an image, or why there is none
  if (read.image.empty()) return;
  const cv::Mat encoded(1, static_cast<int>(size), CV_8U, const_cast<std::uint8_t*>(data));
  const cv::Mat reference = cv::imdecode(encoded, cv::IMREAD_UNCHANGED);
  if (reference.empty() || reference.size() != read.image.size() || reference.type() != read.image.type() ||
      cv::norm(reference, read.image, cv::NORM_INF) != 0)
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gpufilter::io::PngReadOptions options;
  options.threads = 1;
  options.bgr_order = true;
  const gpufilter::io::PngDecodeResult result = gpufilter::io::decode_png(data, size, options);
  if (result.image.empty()) {
    if (result.declined.empty()) std::abort();  // an empty image needs its reason
    check_declined(data, size);
    return 0;
  }
  // Accepted: a PNG with an IHDR first, whose fields the image must match.
  const std::uint32_t width = load_big_endian_32(data + 16), height = load_big_endian_32(data + 20);
  const int depth = data[24], colour = data[25];
  const cv::Mat& image = result.image;
  if (static_cast<std::uint32_t>(image.cols) != width || static_cast<std::uint32_t>(image.rows) != height ||
      image.channels() != expected_channels(static_cast<std::uint8_t>(colour)) ||
      image.depth() != (depth == 16 ? CV_16U : CV_8U) || !result.declined.empty())
    std::abort();
  // The same pixels as OpenCV's decoder (libpng), which the tool falls back to.
  const cv::Mat encoded(1, static_cast<int>(size), CV_8U, const_cast<std::uint8_t*>(data));
  const cv::Mat reference = cv::imdecode(encoded, cv::IMREAD_UNCHANGED);
  if (reference.empty() && reserved_deflate_symbols(data, size)) return 0;
  if (reference.empty() || reference.size() != image.size() || reference.type() != image.type() ||
      cv::norm(reference, image, cv::NORM_INF) != 0)
    std::abort();
  // RGB order: the same image with red and blue swapped.
  options.bgr_order = false;
  const cv::Mat rgb = gpufilter::io::decode_png(data, size, options).image;
  if (rgb.size() != image.size() || rgb.type() != image.type()) std::abort();
  if (image.channels() >= 3) {
    cv::Mat swapped;
    cv::cvtColor(image, swapped, image.channels() == 3 ? cv::COLOR_BGR2RGB : cv::COLOR_BGRA2RGBA);
    if (cv::norm(swapped, rgb, cv::NORM_INF) != 0) std::abort();
  }
  return 0;
}
