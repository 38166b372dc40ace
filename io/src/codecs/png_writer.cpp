#include "gpufilter/io/png_writer.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

#include "gpufilter/io/deflate_strips.hpp"
#include "codecs/parallel_tasks.hpp"
#include "codecs/png_checksums.hpp"
#include "codecs/png_filters.hpp"
#include "codecs/png_format.hpp"
#include "codecs/repeat_probe.hpp"

namespace gpufilter::io {
namespace {

struct PngEncoderTuning {
  // Uncompressed bytes per strip (whole rows, at least one): a 24 MP RGB image makes 69
  // strips for 16 threads to share, and each strip boundary costs the 32 KiB of history
  // deflate forgets there, under 0.1% of the file. The strips depend on the image alone,
  // so the file's bytes do not depend on the thread count.
  static constexpr std::size_t kStripBytes = std::size_t{1} << 20;
  // IDAT chunks at most this long (a strip is far shorter; the format allows 2^31 - 1).
  static constexpr std::size_t kMaxIdatBytes = std::size_t{1} << 30;
  // The default, measured (bench/png_codec; numbers in its README): zlib level 1 with
  // run-length matching only (Z_RLE), rows filtered adaptively, is the fastest and, on
  // photos, smaller than zlib's full search at levels 1 to 6. Adaptive filtering makes
  // files ~10% smaller than OpenCV's fixed Sub filter and costs little beside deflate.
  static constexpr int kDefaultLevel = 1;
  static constexpr int kDefaultStrategy = Z_RLE;
  static constexpr unsigned kDefaultFilters = png::kAllFilters;
  // Strips whose rows repeat at a distance (run-length matching misses those: files 20x
  // larger than level 6's on tiled content) get a short full search instead: level 4's
  // lazy matching, 2 chain entries, matches under 6 bytes dropped (Z_FILTERED), so noise
  // in the same strip costs no more than with Z_RLE. Decided on a sample of each strip;
  // photos score under 0.03, the strips of tiled content that need it 0.3 to 0.9.
  static constexpr std::size_t kProbeBytes = std::size_t{1} << 16;
  static constexpr double kRepeatShare = 0.1;
  static constexpr DeflateSettings kRepeatSettings{4, Z_FILTERED, DeflateTune{4, 4, 16, 2}};
  // --png-compression 7..9: each strip the smaller of the default's run-length matching
  // and level 9's search with Z_FILTERED, its hash chains capped (zlib's 4096 entries
  // made level 9 ~40x slower than the default for a file 0.4% smaller on a clean photo).
  static constexpr int kHighLevelChains[3] = {16, 32, 64};
};

// The rows as PNG stores them: R, G, B(, A) or gray(, alpha), 16-bit big-endian.
struct RowLayout {
  int in_channels = 1;
  int out_channels = 1;
  int bytes_per_channel = 1;
  bool swap_red_blue = false;  // the Mat holds B, G, R(, A)
  std::uint8_t colour_type = png::kColourGray;
  std::size_t row_bytes(int width) const {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(out_channels * bytes_per_channel);
  }
  int bpp() const { return out_channels * bytes_per_channel; }
};

RowLayout layout_of(const cv::Mat& image, const PngWriteOptions& options) {
  RowLayout layout;
  layout.in_channels = image.channels();
  layout.bytes_per_channel = image.depth() == CV_16U ? 2 : 1;
  if (options.gray_alpha) {
    layout.out_channels = 2;
    layout.colour_type = png::kColourGrayAlpha;
    return layout;
  }
  layout.out_channels = layout.in_channels;
  layout.swap_red_blue = layout.in_channels >= 3 && options.bgr_order;
  layout.colour_type = layout.in_channels == 1   ? png::kColourGray
                       : layout.in_channels == 3 ? png::kColourRgb
                                                 : png::kColourRgba;
  return layout;
}

// The Mat channel that PNG channel c comes from (compile-time, so the loops below become
// fixed shuffles): gray+alpha takes channels 0 and 3; colour swaps R and B when asked.
template <int IN, int OUT, bool SWAP>
constexpr std::size_t mat_channel_of(int c) {
  if constexpr (IN == 4 && OUT == 2) return c == 0 ? 0 : 3;
  return static_cast<std::size_t>(SWAP && c < 3 ? 2 - c : c);
}

template <class T, int IN, int OUT, bool SWAP>
void convert_row_fixed(const T* pixels, int width, std::uint8_t* out) {
  for (int x = 0; x < width; ++x, pixels += IN) {
    for (int c = 0; c < OUT; ++c) {
      const T value = pixels[mat_channel_of<IN, OUT, SWAP>(c)];
      if constexpr (sizeof(T) == 1) {
        *out++ = value;
      } else {
        *out++ = static_cast<std::uint8_t>(value >> 8);
        *out++ = static_cast<std::uint8_t>(value);
      }
    }
  }
}

template <class T>
void convert_row_typed(const cv::Mat& image, int y, const RowLayout& layout, std::uint8_t* out) {
  const T* pixels = image.ptr<T>(y);
  const int width = image.cols;
  switch (layout.in_channels * 100 + layout.out_channels * 10 + (layout.swap_red_blue ? 1 : 0)) {
    case 110: convert_row_fixed<T, 1, 1, false>(pixels, width, out); break;
    case 330: convert_row_fixed<T, 3, 3, false>(pixels, width, out); break;
    case 331: convert_row_fixed<T, 3, 3, true>(pixels, width, out); break;
    case 440: convert_row_fixed<T, 4, 4, false>(pixels, width, out); break;
    case 441: convert_row_fixed<T, 4, 4, true>(pixels, width, out); break;
    case 420: convert_row_fixed<T, 4, 2, false>(pixels, width, out); break;
    default: throw std::invalid_argument("no PNG layout for this channel count");
  }
}

void convert_row(const cv::Mat& image, int y, const RowLayout& layout, std::uint8_t* out) {
  if (layout.bytes_per_channel == 2) {
    convert_row_typed<std::uint16_t>(image, y, layout, out);
  } else {
    convert_row_typed<std::uint8_t>(image, y, layout, out);
  }
}

void append_chunk(std::vector<std::uint8_t>& file, const char* type, const std::uint8_t* data, std::size_t size) {
  const std::size_t start = file.size();
  file.resize(start + 12 + size);
  std::uint8_t* chunk = file.data() + start;
  png::store_big_endian_32(static_cast<std::uint32_t>(size), chunk);
  std::memcpy(chunk + 4, type, 4);
  if (size > 0) std::memcpy(chunk + 8, data, size);
  png::store_big_endian_32(png::crc32(0, chunk + 4, size + 4), chunk + 8 + size);
}

std::vector<std::uint8_t> ihdr(int width, int height, const RowLayout& layout) {
  std::vector<std::uint8_t> data(13, 0);
  png::store_big_endian_32(static_cast<std::uint32_t>(width), data.data());
  png::store_big_endian_32(static_cast<std::uint32_t>(height), data.data() + 4);
  data[8] = static_cast<std::uint8_t>(8 * layout.bytes_per_channel);
  data[9] = layout.colour_type;
  // data[10..12]: deflate, filter method 0, no interlace.
  return data;
}

}  // namespace

bool png_writer_takes(const cv::Mat& image, bool gray_alpha) {
  if (image.empty() || image.dims != 2) return false;
  if (image.depth() != CV_8U && image.depth() != CV_16U) return false;
  const int channels = image.channels();
  return gray_alpha ? channels == 4 : channels == 1 || channels == 3 || channels == 4;
}

PngEncoding png_encoding_for(std::optional<int> compression) {
  PngEncoding encoding;
  encoding.filters = png::kAllFilters;
  const int level = compression ? std::clamp(*compression, 0, 9) : -1;
  if (level < 0 || level >= 7) {
    encoding.level = PngEncoderTuning::kDefaultLevel;
    encoding.strategy = PngEncoderTuning::kDefaultStrategy;
    encoding.filters = PngEncoderTuning::kDefaultFilters;
    encoding.alternative = PngEncoding::Alternative::WhereRepeats;
    encoding.alternative_settings = PngEncoderTuning::kRepeatSettings;
    if (level >= 7) {
      const int chain = PngEncoderTuning::kHighLevelChains[level - 7];
      encoding.alternative = PngEncoding::Alternative::Smaller;
      encoding.alternative_settings = DeflateSettings{9, Z_FILTERED, DeflateTune{chain / 2, chain * 2, 258, chain}};
    }
    return encoding;
  }
  encoding.level = level;
  encoding.strategy = Z_DEFAULT_STRATEGY;
  // Stored blocks gain nothing from filtering.
  if (level == 0) encoding.filters = png::filter_bit(png::Filter::None);
  return encoding;
}

std::vector<std::uint8_t> encode_png(const cv::Mat& image, const PngWriteOptions& options) {
  return encode_png(image, png_encoding_for(options.compression), options);
}

std::vector<std::uint8_t> encode_png(const cv::Mat& image, const PngEncoding& encoding,
                                     const PngWriteOptions& options) {
  if (!png_writer_takes(image, options.gray_alpha)) {
    throw std::invalid_argument("PNG holds 8- or 16-bit gray, gray+alpha, RGB or RGBA pixels");
  }
  const RowLayout layout = layout_of(image, options);
  const std::size_t row_bytes = layout.row_bytes(image.cols);
  const auto height = static_cast<std::size_t>(image.rows);
  const std::size_t rows_per_strip = std::max<std::size_t>(1, PngEncoderTuning::kStripBytes / (row_bytes + 1));
  const std::size_t strips = (height + rows_per_strip - 1) / rows_per_strip;
  const unsigned threads = codec_threads(options.threads);
  // Each strip's first row is filtered with None or Sub, which do not look at the row
  // above, so that a reader can reconstruct the strips independently.
  const unsigned first_row_filters =
      encoding.filters & (png::filter_bit(png::Filter::None) | png::filter_bit(png::Filter::Sub));

  const StripSource filtered_strip = [&](std::size_t strip, std::vector<std::uint8_t>& bytes) {
    const std::size_t first = strip * rows_per_strip;
    const std::size_t rows = std::min(rows_per_strip, height - first);
    bytes.resize(rows * (row_bytes + 1));
    std::vector<std::uint8_t> rows_buffer(3 * row_bytes, 0);  // current, prior (zeros at first), scratch
    std::uint8_t* current = rows_buffer.data();
    std::uint8_t* prior = current + row_bytes;
    std::uint8_t* scratch = prior + row_bytes;
    for (std::size_t r = 0; r < rows; ++r) {
      convert_row(image, static_cast<int>(first + r), layout, current);
      const unsigned allowed = r == 0 ? (first_row_filters ? first_row_filters : png::filter_bit(png::Filter::None))
                                      : encoding.filters;
      png::filter_row_adaptive(current, prior, row_bytes, layout.bpp(), allowed, bytes.data() + r * (row_bytes + 1),
                               scratch);
      std::swap(current, prior);
    }
  };
  const DeflateSettings primary{encoding.level, encoding.strategy, encoding.tune};
  const StripSettings strip_settings = [&](const std::vector<std::uint8_t>& bytes) {
    switch (encoding.alternative) {
      case PngEncoding::Alternative::None: break;
      case PngEncoding::Alternative::WhereRepeats:
        if (distant_repeat_share(bytes.data(), bytes.size(), PngEncoderTuning::kProbeBytes) >=
            PngEncoderTuning::kRepeatShare) {
          return std::vector<DeflateSettings>{encoding.alternative_settings};
        }
        break;
      case PngEncoding::Alternative::Smaller: return std::vector<DeflateSettings>{primary, encoding.alternative_settings};
    }
    return std::vector<DeflateSettings>{primary};
  };
  std::vector<std::vector<std::uint8_t>> pieces = deflate_strips(strips, filtered_strip, strip_settings, threads);

  std::size_t compressed = 0;
  for (const auto& piece : pieces) compressed += piece.size();
  std::vector<std::uint8_t> file(png::kSignature.begin(), png::kSignature.end());
  file.reserve(png::kSignature.size() + 25 + compressed + 12 * (pieces.size() + 1) + 16);
  const std::vector<std::uint8_t> header = ihdr(image.cols, image.rows, layout);
  append_chunk(file, "IHDR", header.data(), header.size());
  // One IDAT chunk per strip, copied into place and checksummed side by side.
  struct IdatChunk {
    const std::uint8_t* data;
    std::size_t size;
    std::size_t file_offset;
  };
  std::vector<IdatChunk> chunks;
  std::size_t end = file.size();
  for (const auto& piece : pieces) {
    for (std::size_t done = 0; done < piece.size(); done += PngEncoderTuning::kMaxIdatBytes) {
      const std::size_t size = std::min(PngEncoderTuning::kMaxIdatBytes, piece.size() - done);
      chunks.push_back(IdatChunk{piece.data() + done, size, end});
      end += 12 + size;
    }
  }
  file.resize(end);
  run_tasks(chunks.size(), threads, [&](std::size_t i) {
    std::uint8_t* chunk = file.data() + chunks[i].file_offset;
    const std::size_t size = chunks[i].size;
    png::store_big_endian_32(static_cast<std::uint32_t>(size), chunk);
    std::memcpy(chunk + 4, "IDAT", 4);
    std::memcpy(chunk + 8, chunks[i].data, size);
    png::store_big_endian_32(png::crc32(0, chunk + 4, size + 4), chunk + 8 + size);
  });
  append_chunk(file, "IEND", nullptr, 0);
  return file;
}

}  // namespace gpufilter::io
