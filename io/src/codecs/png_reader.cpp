#include "gpufilter/io/png_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#ifdef GPUFILTER_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "codecs/parallel_tasks.hpp"
#include "codecs/png_checksums.hpp"
#include "codecs/png_filters.hpp"
#include "codecs/png_format.hpp"

namespace gpufilter::io {
namespace {

struct PngDecoderTuning {
  // Rows are handed to threads in runs of about this many bytes (a run may only start at
  // a row filtered with None or Sub): large enough that a task's overhead is nothing,
  // small enough that 16 threads share a 24 MP image evenly.
  static constexpr std::size_t kTaskBytes = std::size_t{256} << 10;
};

struct Header {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  int bit_depth = 0;
  std::uint8_t colour_type = 0;
  int channels() const {
    switch (colour_type) {
      case png::kColourGray: return 1;
      case png::kColourGrayAlpha: return 2;
      case png::kColourRgb: return 3;
      default: return 4;
    }
  }
  std::size_t row_bytes() const {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(channels() * bit_depth / 8);
  }
};

struct Chunk {
  const std::uint8_t* start;  // the length field
  std::uint32_t length;
  const std::uint8_t* data() const { return start + 8; }
  bool crc_matches() const {
    return png::crc32(0, start + 4, std::size_t{length} + 4) == png::load_big_endian_32(start + 8 + length);
  }
};

struct Layout {
  Header header;
  std::vector<Chunk> idat;
};

bool is_letter(std::uint8_t c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_type(const std::uint8_t* type, const char* name) { return std::memcmp(type, name, 4) == 0; }

std::string read_header(const Chunk& chunk, Header& header) {
  if (chunk.length != 13) return "IHDR has the wrong length";
  if (!chunk.crc_matches()) return "IHDR's CRC does not match";
  const std::uint8_t* data = chunk.data();
  header.width = png::load_big_endian_32(data);
  header.height = png::load_big_endian_32(data + 4);
  header.bit_depth = data[8];
  header.colour_type = data[9];
  if (header.width == 0 || header.height == 0 || header.width > png::kMaxChunkLength ||
      header.height > png::kMaxChunkLength) {
    return "the image size is out of range";
  }
  const bool handled_colour = header.colour_type == png::kColourGray || header.colour_type == png::kColourRgb ||
                              header.colour_type == png::kColourGrayAlpha || header.colour_type == png::kColourRgba;
  if (!handled_colour) return "palette images are left to OpenCV";
  if (header.bit_depth != 8 && header.bit_depth != 16) return "bit depths below 8 are left to OpenCV";
  if (data[10] != 0 || data[11] != 0) return "unknown compression or filter method";
  if (data[12] != 0) return "interlaced images are left to OpenCV";
  return {};
}

// Walks the chunks from the signature to IEND. IHDR, IDAT and IEND are checked against
// their CRCs (IDAT's later, beside inflating); ancillary chunks are skipped, as they do
// not change the pixels OpenCV decodes.
std::string read_layout(const std::uint8_t* data, std::size_t size, Layout& layout) {
  if (!looks_like_png(data, size)) return "not a PNG file";
  std::size_t pos = png::kSignature.size();
  bool seen_header = false;
  bool idat_ended = false;
  for (;;) {
    if (size - pos < 12) return "the file ends before IEND";
    const Chunk chunk{data + pos, png::load_big_endian_32(data + pos)};
    const std::uint8_t* type = data + pos + 4;
    if (chunk.length > png::kMaxChunkLength) return "a chunk length is out of range";
    if (chunk.length > size - pos - 12) return "the file ends inside a chunk";
    if (!std::all_of(type, type + 4, is_letter)) return "a chunk type is not made of letters";
    if (!seen_header) {
      if (!is_type(type, "IHDR")) return "the file does not start with IHDR";
      const std::string problem = read_header(chunk, layout.header);
      if (!problem.empty()) return problem;
      seen_header = true;
    } else if (is_type(type, "IDAT")) {
      if (idat_ended) return "IDAT chunks are not consecutive";
      layout.idat.push_back(chunk);
    } else {
      if (!layout.idat.empty()) idat_ended = true;
      if (is_type(type, "IEND")) {
        if (!chunk.crc_matches()) return "IEND's CRC does not match";
        break;
      }
      if (is_type(type, "tRNS")) return "transparency chunks (tRNS) are left to OpenCV";
      const bool critical = (type[0] & 0x20) == 0;
      if (critical) return "critical chunk " + std::string(reinterpret_cast<const char*>(type), 4) + " is left to OpenCV";
    }
    pos += 12 + std::size_t{chunk.length};
  }
  if (layout.idat.empty()) return "no IDAT chunk";
  return {};
}

// Whether every chunk's CRC matches, checked on up to `threads` threads.
bool crcs_match(const std::vector<Chunk>& chunks, unsigned threads) {
  const std::size_t groups = std::min<std::size_t>(chunks.size(), threads);
  std::vector<char> good(groups, 1);
  run_tasks(groups, threads, [&](std::size_t group) {
    for (std::size_t i = group; i < chunks.size(); i += groups)
      if (!chunks[i].crc_matches()) good[group] = 0;
  });
  return std::all_of(good.begin(), good.end(), [](char g) { return g != 0; });
}

// The IDAT chunks' data as one buffer: the first chunk's own bytes when there is one;
// else moved together inside `writable` (the file's own buffer, where the caller allows:
// each chunk's data moves down over the headers before it, so nothing is overwritten
// before it is moved) or copied into `storage`.
const std::uint8_t* gather_idat(const std::vector<Chunk>& chunks, std::uint8_t* writable,
                                std::unique_ptr<std::uint8_t[]>& storage, std::size_t& size) {
  size = 0;
  for (const Chunk& chunk : chunks) size += chunk.length;
  if (chunks.size() == 1) return chunks[0].data();
  std::uint8_t* out = writable;
  if (out == nullptr) {
    storage.reset(new std::uint8_t[std::max<std::size_t>(size, 1)]);
    out = storage.get();
  }
  std::size_t offset = 0;
  for (const Chunk& chunk : chunks) {
    std::memmove(out + offset, chunk.data(), chunk.length);
    offset += chunk.length;
  }
  return out;
}

// Inflates the zlib stream into exactly `out_size` bytes; anything else (damage, a stream
// too short or too long, data after its end) declines.
std::string inflate_all(const std::uint8_t* in, std::size_t in_size, std::uint8_t* out, std::size_t out_size) {
#ifdef GPUFILTER_HAVE_LIBDEFLATE
  libdeflate_decompressor* decompressor = libdeflate_alloc_decompressor();
  if (decompressor == nullptr) throw std::bad_alloc();
  std::size_t consumed = 0;
  std::size_t produced = 0;
  const libdeflate_result result =
      libdeflate_zlib_decompress_ex(decompressor, in, in_size, out, out_size, &consumed, &produced);
  libdeflate_free_decompressor(decompressor);
  if (result == LIBDEFLATE_INSUFFICIENT_SPACE) return "the zlib stream holds more data than the image";
  if (result != LIBDEFLATE_SUCCESS) return "the zlib stream is damaged";
  if (produced != out_size) return "the zlib stream ends before the image does";
  if (consumed != in_size) return "data follows the zlib stream";
  return {};
#else
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) throw std::bad_alloc();
  std::size_t in_done = 0;
  std::size_t out_done = 0;
  int status = Z_OK;
  while (status == Z_OK) {
    // zlib counts in uInt: feed and drain in pieces that fit.
    const std::size_t in_piece = std::min<std::size_t>(in_size - in_done, UINT_MAX);
    const std::size_t out_piece = std::min<std::size_t>(out_size - out_done, UINT_MAX);
    stream.next_in = const_cast<Bytef*>(in + in_done);
    stream.avail_in = static_cast<uInt>(in_piece);
    stream.next_out = out + out_done;
    stream.avail_out = static_cast<uInt>(out_piece);
    status = inflate(&stream, Z_NO_FLUSH);
    in_done += in_piece - stream.avail_in;
    out_done += out_piece - stream.avail_out;
    if (status == Z_BUF_ERROR && (out_done == out_size || in_done == in_size)) break;
  }
  inflateEnd(&stream);
  if (status == Z_STREAM_END) {
    if (out_done != out_size) return "the zlib stream ends before the image does";
    if (in_done != in_size) return "data follows the zlib stream";
    return {};
  }
  if (status == Z_BUF_ERROR && out_done == out_size) return "the zlib stream holds more data than the image";
  if (status == Z_BUF_ERROR) return "the zlib stream is cut short";
  return "the zlib stream is damaged";
#endif
}

// The PNG channel that Mat channel c comes from: gray+alpha spreads gray over B, G, R;
// colour swaps R and B for OpenCV's order when asked. Compile-time, so the loops below
// become fixed shuffles.
template <int IN, bool SWAP>
constexpr std::size_t png_channel_of(int c) {
  if constexpr (IN == 1) return 0;
  if constexpr (IN == 2) return c < 3 ? 0 : 1;
  return static_cast<std::size_t>(SWAP && c < 3 ? 2 - c : c);
}

// One reconstructed row (PNG order, big-endian) into the Mat's row.
template <class T, int IN, int OUT, bool SWAP>
void store_row_fixed(const std::uint8_t* row, std::size_t width, T* out) {
  for (std::size_t x = 0; x < width; ++x, row += IN * sizeof(T), out += OUT) {
    for (int c = 0; c < OUT; ++c) {
      const std::uint8_t* value = row + png_channel_of<IN, SWAP>(c) * sizeof(T);
      if constexpr (sizeof(T) == 1) {
        out[c] = value[0];
      } else {
        out[c] = static_cast<T>(value[0] << 8 | value[1]);
      }
    }
  }
}

struct RowStore {
  int png_channels;
  int mat_channels;
  bool swap_red_blue;
};

RowStore row_store(const Header& header, bool bgr_order) {
  switch (header.colour_type) {
    case png::kColourGray: return RowStore{1, 1, false};
    case png::kColourGrayAlpha: return RowStore{2, 4, false};
    case png::kColourRgb: return RowStore{3, 3, bgr_order};
    default: return RowStore{4, 4, bgr_order};
  }
}

template <class T>
void store_row_typed(const std::uint8_t* row, std::size_t width, const RowStore& store, T* out) {
  switch (store.png_channels * 2 + (store.swap_red_blue ? 1 : 0)) {
    case 2: store_row_fixed<T, 1, 1, false>(row, width, out); break;
    case 4: store_row_fixed<T, 2, 4, false>(row, width, out); break;
    case 6: store_row_fixed<T, 3, 3, false>(row, width, out); break;
    case 7: store_row_fixed<T, 3, 3, true>(row, width, out); break;
    case 8: store_row_fixed<T, 4, 4, false>(row, width, out); break;
    default: store_row_fixed<T, 4, 4, true>(row, width, out); break;
  }
}

PngDecodeResult declined(std::string why) { return PngDecodeResult{cv::Mat(), std::move(why)}; }

// `writable`: where the IDAT data may be gathered in place (the file's own buffer, which
// the caller gives up), or nullptr.
PngDecodeResult decode_checked(const std::uint8_t* data, std::size_t size, const PngReadOptions& options,
                               std::uint8_t* writable) {
  Layout layout;
  if (std::string problem = read_layout(data, size, layout); !problem.empty()) return declined(problem);
  const Header& header = layout.header;
  const std::size_t row_bytes = header.row_bytes();
  const std::size_t stride = row_bytes + 1;  // the filter type byte, then the row
  const std::size_t height = header.height;
  if (stride > SIZE_MAX / height) return declined("the image is too large");
  const int bytes_per_channel = header.bit_depth / 8;
  const int bpp = header.channels() * bytes_per_channel;
  const RowStore store = row_store(header, options.bgr_order);
  // OpenCV's Mat holds at most INT_MAX columns.
  if (header.width > static_cast<std::uint32_t>(INT_MAX) / static_cast<std::uint32_t>(store.mat_channels))
    return declined("the image is too wide for a Mat");
  // Deflate codes at most 258 bytes in 2 bits (1032:1): rows that need more than the IDAT
  // data can hold mean a damaged header, declined before they are allocated (a 100-byte
  // file may claim 2^31 x 5 pixels).
  std::size_t idat_bytes = 0;
  for (const Chunk& chunk : layout.idat) idat_bytes += chunk.length;
  if (stride * height / 1032 > idat_bytes) return declined("the IDAT data is too short for the image");
  const unsigned threads = codec_threads(options.threads);

  std::unique_ptr<std::uint8_t[]> raw(new std::uint8_t[stride * height]);
  std::unique_ptr<std::uint8_t[]> idat_storage;
  std::size_t idat_size = 0;
  std::string inflate_problem;
  if (writable != nullptr && layout.idat.size() > 1) {
    // Gathering in place overwrites the chunk headers and CRCs: check them first.
    if (!crcs_match(layout.idat, threads)) return declined("an IDAT chunk's CRC does not match");
    // The chunks lie at the first data byte's offset onwards in `writable` too.
    std::uint8_t* first = writable + (layout.idat[0].data() - data);
    const std::uint8_t* idat = gather_idat(layout.idat, first, idat_storage, idat_size);
    inflate_problem = inflate_all(idat, idat_size, raw.get(), stride * height);
  } else {
    // Inflating is one thread's work; the IDAT CRCs are checked beside it.
    const std::uint8_t* idat = gather_idat(layout.idat, nullptr, idat_storage, idat_size);
    bool crcs_good = true;
    run_tasks(2, std::min(threads, 2u), [&](std::size_t task) {
      if (task == 0) {
        inflate_problem = inflate_all(idat, idat_size, raw.get(), stride * height);
      } else {
        crcs_good = crcs_match(layout.idat, 1);
      }
    });
    if (!crcs_good) return declined("an IDAT chunk's CRC does not match");
  }
  if (!inflate_problem.empty()) return declined(inflate_problem);

  // Runs of rows that need nothing above them: each starts at row 0 or at a row filtered
  // with None or Sub.
  std::vector<std::size_t> run_starts{0};
  std::size_t run_bytes = 0;
  for (std::size_t y = 0; y < height; ++y) {
    const std::uint8_t type = raw[y * stride];
    if (type >= png::kFilterCount) return declined("a row names an unknown filter type");
    const bool independent = type == static_cast<std::uint8_t>(png::Filter::None) ||
                             type == static_cast<std::uint8_t>(png::Filter::Sub);
    if (y > 0 && independent && run_bytes >= PngDecoderTuning::kTaskBytes) {
      run_starts.push_back(y);
      run_bytes = 0;
    }
    run_bytes += stride;
  }
  run_starts.push_back(height);

  const int mat_type = CV_MAKETYPE(bytes_per_channel == 2 ? CV_16U : CV_8U, store.mat_channels);
  cv::Mat image(static_cast<int>(header.height), static_cast<int>(header.width), mat_type);
  const std::vector<std::uint8_t> zeros(row_bytes, 0);
  run_tasks(run_starts.size() - 1, threads, [&](std::size_t run) {
    for (std::size_t y = run_starts[run]; y < run_starts[run + 1]; ++y) {
      std::uint8_t* row = raw.get() + y * stride + 1;
      const std::uint8_t* prior = y == run_starts[run] ? zeros.data() : row - stride;
      png::unfilter_row(row[-1], row, prior, row_bytes, bpp);  // the type was checked above
      if (bytes_per_channel == 2) {
        store_row_typed(row, header.width, store, image.ptr<std::uint16_t>(static_cast<int>(y)));
      } else {
        store_row_typed(row, header.width, store, image.ptr<std::uint8_t>(static_cast<int>(y)));
      }
    }
  });
  return PngDecodeResult{image, {}};
}

}  // namespace

bool looks_like_png(const std::uint8_t* data, std::size_t size) {
  return size >= png::kSignature.size() && std::equal(png::kSignature.begin(), png::kSignature.end(), data);
}

PngDecodeResult decode_png(const std::uint8_t* data, std::size_t size, const PngReadOptions& options) {
  try {
    return decode_checked(data, size, options, nullptr);
  } catch (const std::bad_alloc&) {
    return declined("out of memory");
  }
}

PngDecodeResult read_png_file(const std::string& path, const PngReadOptions& options) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return declined(std::string("cannot open: ") + std::strerror(errno));
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) return declined("not a regular file");
  const auto size = static_cast<std::size_t>(status.st_size);
  std::array<std::uint8_t, 8> head{};
  if (size < head.size() || ::pread(fd, head.data(), head.size(), 0) != static_cast<ssize_t>(head.size()) ||
      !looks_like_png(head.data(), head.size())) {
    return declined("not a PNG file");
  }
  std::unique_ptr<std::uint8_t[]> bytes;
  try {
    bytes.reset(new std::uint8_t[size]);
  } catch (const std::bad_alloc&) {
    return declined("out of memory");
  }
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::pread(fd, bytes.get() + done, size - done, static_cast<off_t>(done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return declined("cannot read the whole file");
    done += static_cast<std::size_t>(got);
  }
  try {
    return decode_checked(bytes.get(), size, options, bytes.get());
  } catch (const std::bad_alloc&) {
    return declined("out of memory");
  }
}

}  // namespace gpufilter::io
