// The tool's PNG codec (io: png_writer, png_reader) against OpenCV's: files either
// writes, the other reads bit for bit; every filter type, depth and channel layout; odd
// sizes; damaged files declined (for OpenCV to report), never decoded into wrong pixels.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "codecs/png_filters.hpp"
#include "codecs/png_format.hpp"
#include "gpufilter/io/png_reader.hpp"
#include "gpufilter/io/png_writer.hpp"

namespace gpufilter::io::png_codec_test {
namespace {

using Bytes = std::vector<std::uint8_t>;

// Noise over a gradient: runs, smooth stretches and edges, so that every filter type
// wins somewhere under the adaptive heuristic.
cv::Mat test_image(int rows, int cols, int type, unsigned seed) {
  cv::Mat image(rows, cols, type);
  std::mt19937 random(seed);
  const int channels = image.channels();
  const bool sixteen = image.depth() == CV_16U;
  const int max = sixteen ? 65535 : 255;
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < cols; ++x) {
      for (int c = 0; c < channels; ++c) {
        int value = 0;
        switch ((y / 3 + c) % 4) {
          case 0: value = static_cast<int>(random() % static_cast<unsigned>(max + 1)); break;  // noise
          case 1: value = (x * 7 + y * 3 + c * 40) % (max + 1); break;                          // gradient
          case 2: value = (x / 5) % 2 ? max : 0; break;                                          // edges
          default: value = (x * x + y) % 17 + (sixteen ? 30000 : 100); break;                    // texture
        }
        if (sixteen) {
          image.ptr<std::uint16_t>(y)[x * channels + c] = static_cast<std::uint16_t>(value);
        } else {
          image.ptr<std::uint8_t>(y)[x * channels + c] = static_cast<std::uint8_t>(value);
        }
      }
    }
  }
  return image;
}

bool identical(const cv::Mat& a, const cv::Mat& b) {
  return !a.empty() && a.type() == b.type() && a.size() == b.size() && cv::norm(a, b, cv::NORM_INF) == 0;
}

Bytes opencv_encode(const cv::Mat& image, const std::vector<int>& params = {}) {
  std::vector<uchar> bytes;
  EXPECT_TRUE(cv::imencode(".png", image, bytes, params));
  return Bytes(bytes.begin(), bytes.end());
}

cv::Mat opencv_decode(const Bytes& bytes) {
  return cv::imdecode(std::vector<uchar>(bytes.begin(), bytes.end()), cv::IMREAD_UNCHANGED);
}

cv::Mat our_decode(const Bytes& bytes, unsigned threads = 4) {
  PngReadOptions options;
  options.threads = threads;
  const PngDecodeResult result = decode_png(bytes.data(), bytes.size(), options);
  EXPECT_TRUE(result.declined.empty()) << result.declined;
  return result.image;
}

Bytes our_encode(const cv::Mat& image, std::optional<int> compression = std::nullopt, unsigned threads = 4) {
  PngWriteOptions options;
  options.compression = compression;
  options.threads = threads;
  return encode_png(image, options);
}

// The gray+alpha image OpenCV decodes a gray+alpha PNG into: gray in B, G and R.
cv::Mat as_gray_alpha_decoded(const cv::Mat& bgra) {
  std::vector<cv::Mat> planes;
  cv::split(bgra, planes);
  cv::Mat out;
  cv::merge(std::vector<cv::Mat>{planes[0], planes[0], planes[0], planes[3]}, out);
  return out;
}

const int kTypes[] = {CV_8UC1, CV_8UC3, CV_8UC4, CV_16UC1, CV_16UC3, CV_16UC4};
const cv::Size kSizes[] = {{1, 1}, {1, 9}, {9, 1}, {2, 3}, {7, 5}, {33, 17}, {301, 203}};

std::string describe(int type, cv::Size size) {
  return "type " + std::to_string(type) + ", " + std::to_string(size.width) + "x" + std::to_string(size.height);
}

TEST(PngCodec, OwnFilesRoundTripAndOpenCvReadsThem) {
  unsigned seed = 1;
  for (const int type : kTypes) {
    for (const cv::Size size : kSizes) {
      const cv::Mat image = test_image(size.height, size.width, type, seed++);
      for (const std::optional<int> level :
           {std::optional<int>{}, std::optional<int>{0}, std::optional<int>{1}, std::optional<int>{2},
            std::optional<int>{3}, std::optional<int>{4}, std::optional<int>{5}, std::optional<int>{6},
            std::optional<int>{7}, std::optional<int>{8}, std::optional<int>{9}}) {
        SCOPED_TRACE(describe(type, size) + ", level " + (level ? std::to_string(*level) : "default"));
        const Bytes file = our_encode(image, level);
        EXPECT_TRUE(identical(our_decode(file), image));
        EXPECT_TRUE(identical(opencv_decode(file), image));
      }
    }
  }
}

TEST(PngCodec, ReadsOpenCvFilesLikeOpenCv) {
  unsigned seed = 100;
  for (const int type : kTypes) {
    for (const cv::Size size : kSizes) {
      const cv::Mat image = test_image(size.height, size.width, type, seed++);
      // OpenCV's default (Sub filter) and explicit levels (libpng's adaptive filters).
      for (const std::vector<int>& params :
           {std::vector<int>{}, {cv::IMWRITE_PNG_COMPRESSION, 0}, {cv::IMWRITE_PNG_COMPRESSION, 3},
            {cv::IMWRITE_PNG_COMPRESSION, 9, cv::IMWRITE_PNG_STRATEGY, cv::IMWRITE_PNG_STRATEGY_FILTERED}}) {
        SCOPED_TRACE(describe(type, size) + ", " + std::to_string(params.size()) + " params");
        const Bytes file = opencv_encode(image, params);
        const cv::Mat reference = opencv_decode(file);
        ASSERT_TRUE(identical(reference, image));
        EXPECT_TRUE(identical(our_decode(file), reference));
      }
    }
  }
}

TEST(PngCodec, EveryFilterTypeEveryPixelSize) {
  unsigned seed = 200;
  for (const int type : kTypes) {
    for (const cv::Size size : {cv::Size{1, 1}, cv::Size{5, 4}, cv::Size{64, 19}}) {
      const cv::Mat image = test_image(size.height, size.width, type, seed++);
      for (int f = 0; f < png::kFilterCount; ++f) {
        SCOPED_TRACE(describe(type, size) + ", filter " + std::to_string(f));
        PngEncoding encoding;
        encoding.filters = png::filter_bit(static_cast<png::Filter>(f));
        const Bytes file = encode_png(image, encoding, PngWriteOptions{});
        EXPECT_TRUE(identical(opencv_decode(file), image));
        EXPECT_TRUE(identical(our_decode(file), image));
      }
    }
  }
}

TEST(PngCodec, GrayAlpha) {
  for (const int type : {CV_8UC4, CV_16UC4}) {
    for (const cv::Size size : kSizes) {
      SCOPED_TRACE(describe(type, size));
      const cv::Mat image = test_image(size.height, size.width, type, 300);
      PngWriteOptions options;
      options.gray_alpha = true;
      const Bytes file = encode_png(image, options);
      ASSERT_GT(file.size(), 26u);
      EXPECT_EQ(file[25], png::kColourGrayAlpha);
      const cv::Mat expected = as_gray_alpha_decoded(image);
      EXPECT_TRUE(identical(opencv_decode(file), expected));
      EXPECT_TRUE(identical(our_decode(file), expected));
    }
  }
}

TEST(PngCodec, ChannelOrderOnRequest) {
  const cv::Mat bgr = test_image(11, 13, CV_8UC3, 400);
  cv::Mat rgb;
  cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
  PngWriteOptions write;
  write.bgr_order = false;
  const Bytes file = encode_png(rgb, write);
  EXPECT_TRUE(identical(opencv_decode(file), bgr));
  PngReadOptions read;
  read.bgr_order = false;
  EXPECT_TRUE(identical(decode_png(file.data(), file.size(), read).image, rgb));
}

TEST(PngCodec, BytesDoNotDependOnThreads) {
  for (const int type : {CV_8UC3, CV_16UC4}) {
    const cv::Mat image = test_image(700, 800, type, 500);  // several strips
    const Bytes one = our_encode(image, std::nullopt, 1);
    EXPECT_EQ(our_encode(image, std::nullopt, 3), one);
    EXPECT_EQ(our_encode(image, std::nullopt, 16), one);
    EXPECT_TRUE(identical(our_decode(one, 1), image));
    EXPECT_TRUE(identical(our_decode(one, 7), image));
    EXPECT_TRUE(identical(opencv_decode(one), image));
  }
}

TEST(PngCodec, CompressionLevelsTradeSize) {
  const cv::Mat image = test_image(200, 300, CV_8UC3, 600);
  const std::size_t stored = our_encode(image, 0).size();
  EXPECT_GE(stored, image.total() * image.elemSize());  // level 0: stored blocks
  EXPECT_LT(our_encode(image, 9).size(), stored);
  EXPECT_LT(our_encode(image).size(), stored);
}

// Rows of noise that repeat a 37-pixel pattern across the width (each row its own): no
// PNG filter predicts it and run-length matching finds nothing, only matches at a distance.
cv::Mat repeated_noise(int rows, int cols, unsigned seed) {
  cv::Mat image(rows, cols, CV_8UC3);
  cv::Mat pattern(1, 37, CV_8UC3);
  cv::RNG random(seed);
  for (int y = 0; y < rows; ++y) {
    random.fill(pattern, cv::RNG::UNIFORM, 0, 256);
    for (int x = 0; x < cols; x += pattern.cols) {
      const int width = std::min(pattern.cols, cols - x);
      pattern.colRange(0, width).copyTo(image.row(y).colRange(x, x + width));
    }
  }
  return image;
}

TEST(PngCodec, DefaultFindsRepeatsAtADistance) {
  const cv::Mat image = repeated_noise(600, 2000, 700);  // several strips
  const double raw = static_cast<double>(image.total() * image.elemSize());
  const Bytes file = our_encode(image);
  // One 37-pixel pattern in 54 is new: ~2% of the raw size; run-length matching alone
  // leaves ~100%.
  EXPECT_LT(static_cast<double>(file.size()), 0.1 * raw);
  EXPECT_TRUE(identical(opencv_decode(file), image));
  for (const int level : {7, 9}) {
    SCOPED_TRACE("level " + std::to_string(level));
    EXPECT_LT(static_cast<double>(our_encode(image, level).size()), 0.1 * raw);
  }
}

TEST(PngCodec, HighLevelsNeverLargerThanTheDefaultOnNoise) {
  // Levels 7..9 keep, per strip, the smaller of the default's run-length matching and a
  // full search; zlib's level 9 alone writes noise larger than Z_RLE does.
  cv::Mat image(400, 900, CV_8UC3);
  cv::RNG(800).fill(image, cv::RNG::UNIFORM, 0, 256);
  const std::size_t fast = our_encode(image).size();
  for (const int level : {7, 8, 9}) EXPECT_LE(our_encode(image, level).size(), fast) << "level " << level;
}

TEST(PngCodec, RefusesWhatPngCannotHold) {
  EXPECT_FALSE(png_writer_takes(cv::Mat(2, 2, CV_32FC3), false));
  EXPECT_FALSE(png_writer_takes(cv::Mat(2, 2, CV_8UC2), false));
  EXPECT_FALSE(png_writer_takes(cv::Mat(2, 2, CV_8UC3), true));
  EXPECT_FALSE(png_writer_takes(cv::Mat(), false));
  EXPECT_THROW(our_encode(cv::Mat(2, 2, CV_32FC1)), std::invalid_argument);
}

// Rewrites IHDR's field at `offset` (from the chunk data's start) and its CRC.
Bytes with_header_byte(Bytes file, std::size_t offset, std::uint8_t value) {
  file[16 + offset] = value;
  const std::uint32_t crc = static_cast<std::uint32_t>(::crc32(0, file.data() + 12, 17));
  png::store_big_endian_32(crc, file.data() + 29);
  return file;
}

// Inserts a chunk right after IHDR.
Bytes with_chunk(Bytes file, const char* type, const Bytes& data) {
  Bytes chunk(12 + data.size());
  png::store_big_endian_32(static_cast<std::uint32_t>(data.size()), chunk.data());
  std::memcpy(chunk.data() + 4, type, 4);
  std::copy(data.begin(), data.end(), chunk.begin() + 8);
  const auto crc = static_cast<std::uint32_t>(::crc32(0, chunk.data() + 4, static_cast<uInt>(data.size() + 4)));
  png::store_big_endian_32(crc, chunk.data() + 8 + data.size());
  file.insert(file.begin() + 33, chunk.begin(), chunk.end());
  return file;
}

std::string declined_reason(const Bytes& file) {
  const PngDecodeResult result = decode_png(file.data(), file.size(), PngReadOptions{});
  EXPECT_TRUE(result.image.empty());
  return result.declined;
}

TEST(PngCodec, DeclinesWhatItLeavesToOpenCv) {
  const Bytes file = our_encode(test_image(8, 8, CV_8UC3, 700));
  EXPECT_NE(declined_reason(with_header_byte(file, 12, 1)).find("interlaced"), std::string::npos);
  EXPECT_NE(declined_reason(with_header_byte(file, 9, 3)).find("palette"), std::string::npos);
  EXPECT_NE(declined_reason(with_chunk(file, "tRNS", {0, 1, 0, 2, 0, 3})).find("tRNS"), std::string::npos);
  EXPECT_NE(declined_reason(with_chunk(file, "ABCD", {})).find("critical"), std::string::npos);
  // An ancillary chunk it does not know changes nothing.
  const Bytes with_text = with_chunk(file, "tEXt", {'a', 0, 'b'});
  EXPECT_TRUE(identical(our_decode(with_text), opencv_decode(with_text)));
  // OpenCV's 1-bit files.
  const Bytes bilevel = opencv_encode(cv::Mat(5, 9, CV_8UC1, cv::Scalar(255)), {cv::IMWRITE_PNG_BILEVEL, 1});
  EXPECT_NE(declined_reason(bilevel).find("bit depths"), std::string::npos);
  EXPECT_EQ(declined_reason(Bytes{'n', 'o', 't'}), "not a PNG file");
}

// A header whose rows the IDAT data could never inflate to is declined before the rows
// are allocated: 2^31 - 1 x 5 16-bit pixels from a few hundred bytes would take 20 GB.
TEST(PngCodec, DeclinesRowsLargerThanTheDataCanHold) {
  Bytes file = our_encode(test_image(8, 5, CV_16UC1, 710));
  file[17] = file[18] = file[19] = 0xff;
  file = with_header_byte(file, 0, 0x7f);  // the width 0x7fffffff, the CRC rewritten
  EXPECT_EQ(declined_reason(file), "the IDAT data is too short for the image");
}

TEST(PngCodec, TruncatedFilesAreDeclined) {
  for (const Bytes& file : {our_encode(test_image(40, 50, CV_8UC3, 800)),
                            opencv_encode(test_image(40, 50, CV_16UC4, 801))}) {
    for (std::size_t length = 0; length < file.size(); length += (length < 64 ? 1 : 37)) {
      const Bytes cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(length));
      const PngDecodeResult result = decode_png(cut.data(), cut.size(), PngReadOptions{});
      EXPECT_TRUE(result.image.empty()) << "length " << length;
      EXPECT_FALSE(result.declined.empty());
    }
  }
}

// Damage anywhere: the decoder declines, or (where no check catches it, e.g. inside an
// ancillary chunk) gives exactly what OpenCV gives.
TEST(PngCodec, DamagedFilesNeverDecodeWrong) {
  const Bytes file = opencv_encode(test_image(30, 40, CV_8UC3, 900));
  std::mt19937 random(901);
  for (int trial = 0; trial < 400; ++trial) {
    Bytes damaged = file;
    const std::size_t at = random() % damaged.size();
    damaged[at] = static_cast<std::uint8_t>(damaged[at] ^ (1u + random() % 255u));
    const PngDecodeResult result = decode_png(damaged.data(), damaged.size(), PngReadOptions{});
    if (result.image.empty()) continue;
    EXPECT_TRUE(identical(result.image, opencv_decode(damaged))) << "byte " << at;
  }
}

// Damage that keeps every CRC valid: a flipped bit in the compressed data, CRC rewritten.
// The zlib stream's own checks (codes, Adler-32) must catch it.
TEST(PngCodec, DamagedStreamWithValidCrcIsDeclined) {
  Bytes file = our_encode(test_image(30, 40, CV_8UC3, 950));
  const std::size_t idat = 33;  // our files: IDAT right after IHDR
  ASSERT_EQ(std::string(file.begin() + idat + 4, file.begin() + idat + 8), "IDAT");
  const std::uint32_t length = png::load_big_endian_32(file.data() + idat);
  std::mt19937 random(951);
  for (int trial = 0; trial < 100; ++trial) {
    Bytes damaged = file;
    const std::size_t at = idat + 8 + random() % length;
    damaged[at] = static_cast<std::uint8_t>(damaged[at] ^ (1u << (random() % 8)));
    const auto crc = static_cast<std::uint32_t>(::crc32(0, damaged.data() + idat + 4, length + 4));
    png::store_big_endian_32(crc, damaged.data() + idat + 8 + length);
    const PngDecodeResult result = decode_png(damaged.data(), damaged.size(), PngReadOptions{});
    if (!result.image.empty()) {
      EXPECT_TRUE(identical(result.image, opencv_decode(damaged))) << "byte " << at;
    }
  }
}

// From a file, the IDAT chunks are gathered inside the file's own buffer (after their
// CRCs are checked): OpenCV's files have many 8 KiB IDAT chunks.
TEST(PngCodec, ReadsFilesWithManyIdatChunks) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("png_codec_test_" + std::to_string(::getpid()) + ".png");
  const auto write_file = [&](const Bytes& bytes) {
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
  };
  const cv::Mat image = test_image(150, 200, CV_8UC3, 1000);
  const Bytes bytes = opencv_encode(image);
  std::size_t idat_chunks = 0;
  std::vector<std::size_t> idat_offsets;
  for (std::size_t pos = 8; pos + 12 <= bytes.size();) {
    const std::uint32_t length = png::load_big_endian_32(bytes.data() + pos);
    if (std::memcmp(bytes.data() + pos + 4, "IDAT", 4) == 0) {
      ++idat_chunks;
      idat_offsets.push_back(pos);
    }
    pos += 12 + length;
  }
  ASSERT_GT(idat_chunks, 2u) << "the test wants a file of several IDAT chunks";
  write_file(bytes);
  for (const unsigned threads : {1u, 4u}) {
    const PngDecodeResult result = read_png_file(file.string(), PngReadOptions{true, threads});
    EXPECT_TRUE(result.declined.empty()) << result.declined;
    EXPECT_TRUE(identical(result.image, image));
  }
  // A damaged byte in a middle chunk: its CRC no longer matches.
  Bytes damaged = bytes;
  damaged[idat_offsets[idat_offsets.size() / 2] + 20] ^= 0x40;
  write_file(damaged);
  EXPECT_NE(read_png_file(file.string(), PngReadOptions{}).declined.find("CRC"), std::string::npos);
  // Cut short.
  write_file(Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2)));
  EXPECT_TRUE(read_png_file(file.string(), PngReadOptions{}).image.empty());
  std::filesystem::remove(file);
  EXPECT_FALSE(read_png_file(file.string(), PngReadOptions{}).declined.empty());
}

}  // namespace
}  // namespace gpufilter::io::png_codec_test
