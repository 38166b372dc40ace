// The tool's own JPEG path (libjpeg-turbo directly) against OpenCV's codecs, which it
// stands in for: the same pixels decoded (upright by EXIF as OpenCV turns them), the same
// bytes encoded, and the files it must decline left to OpenCV.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdint>
#include <optional>
#include <vector>

#include "codecs/jpeg_cpu_codec.hpp"
#include "jpeg_test_bytes.hpp"

namespace gpufilter::io::jpeg_cpu_codec_test {
namespace {

using namespace jpeg_test;

constexpr std::uint64_t kNoLimit = std::uint64_t{1} << 40;

// A photo-like image: smooth gradients with a little noise (random_u8 is all edges).
cv::Mat smooth_u8(int rows, int cols, int channels, unsigned seed) {
  cv::Mat image(rows, cols, CV_MAKETYPE(CV_8U, channels));
  cv::RNG rng(seed);
  for (int y = 0; y < rows; ++y) {
    auto* row = image.ptr<unsigned char>(y);
    for (int x = 0; x < cols * channels; ++x)
      row[x] = cv::saturate_cast<unsigned char>((x * 7 + y * 3 + (x % channels) * 60) % 256 + rng.uniform(-4, 5));
  }
  return image;
}

bool same_pixels(const cv::Mat& a, const cv::Mat& b) {
  return a.type() == b.type() && a.size() == b.size() && cv::norm(a, b, cv::NORM_INF) == 0;
}

std::optional<cv::Mat> ours(const Bytes& jpeg, bool upright = false, std::uint64_t max_pixels = kNoLimit) {
  return jpeg_cpu::decode(jpeg.data(), jpeg.size(), upright, max_pixels);
}

struct Case {
  int rows, cols, channels;
  std::vector<int> params;  // OpenCV's encoder settings for the file decoded
};

TEST(JpegCpuCodec, DecodesAsOpenCvDoes) {
  ASSERT_TRUE(jpeg_cpu::available()) << "this build has no libjpeg-turbo path";
  const std::vector<Case> cases = {
      {1, 1, 3, {}},
      {23, 37, 3, {cv::IMWRITE_JPEG_QUALITY, 50}},
      {17, 640, 1, {}},
      {64, 48, 3, {cv::IMWRITE_JPEG_QUALITY, 100}},
      {33, 65, 3, {cv::IMWRITE_JPEG_PROGRESSIVE, 1}},
      {40, 31, 3, {cv::IMWRITE_JPEG_RST_INTERVAL, 2}},
      {29, 45, 3, {cv::IMWRITE_JPEG_LUMA_QUALITY, 90, cv::IMWRITE_JPEG_CHROMA_QUALITY, 40}},  // 4:4:4
      {101, 99, 1, {cv::IMWRITE_JPEG_OPTIMIZE, 1}},
  };
  unsigned seed = 1;
  for (const Case& c : cases) {
    for (const cv::Mat& image : {random_u8(c.rows, c.cols, c.channels, seed), smooth_u8(c.rows, c.cols, c.channels, seed)}) {
      const Bytes jpeg = encode(image, c.params);
      const std::optional<cv::Mat> decoded = ours(jpeg);
      ASSERT_TRUE(decoded) << c.cols << "x" << c.rows << "x" << c.channels;
      EXPECT_TRUE(same_pixels(*decoded, cv::imdecode(jpeg, cv::IMREAD_UNCHANGED)))
          << c.cols << "x" << c.rows << "x" << c.channels << " seed " << seed;
      ++seed;
    }
  }
}

TEST(JpegCpuCodec, TurnsUprightAsOpenCvDoes) {
  const Bytes plain = encode(smooth_u8(21, 34, 3, 7));
  for (int orientation = 1; orientation <= 8; ++orientation) {
    for (bool little : {true, false}) {
      const Bytes jpeg =
          with_segments_after_soi(plain, {segment(0xE1, exif_payload(static_cast<std::uint16_t>(orientation), little))});
      const std::optional<cv::Mat> upright = ours(jpeg, true);
      ASSERT_TRUE(upright) << orientation;
      EXPECT_TRUE(same_pixels(*upright, cv::imdecode(jpeg, cv::IMREAD_ANYDEPTH | cv::IMREAD_ANYCOLOR)))
          << "orientation " << orientation << (little ? " II" : " MM");
      EXPECT_TRUE(same_pixels(*ours(jpeg, false), cv::imdecode(jpeg, cv::IMREAD_UNCHANGED))) << "as stored";
    }
  }
}

TEST(JpegCpuCodec, DeclinesWhatItMustLeaveToOpenCv) {
  const Bytes jpeg = encode(smooth_u8(48, 64, 3, 3));
  Bytes truncated(jpeg.begin(), jpeg.begin() + static_cast<std::ptrdiff_t>(jpeg.size() / 2));
  EXPECT_FALSE(ours(truncated)) << "a truncated file decodes with a warning: its pixels are not the file's";
  Bytes damaged = jpeg;
  damaged.insert(damaged.begin() + 2, {0x12, 0x34});  // bytes between SOI and the next marker
  EXPECT_FALSE(ours(damaged)) << "extraneous data warns";
  EXPECT_FALSE(ours(Bytes{0xFF, 0xD8, 0xFF})) << "no frame";
  EXPECT_FALSE(ours(Bytes{'P', 'N', 'G'}));
  EXPECT_FALSE(ours(jpeg, false, 48 * 64 - 1)) << "over the pixel limit";
  EXPECT_TRUE(ours(jpeg, false, 48 * 64)) << "at the pixel limit";
}

TEST(JpegCpuCodec, EncodesTheBytesOpenCvWrites) {
  unsigned seed = 11;
  for (const int channels : {1, 3, 4}) {
    for (const int quality : {0, 50, 95, 100}) {
      for (const cv::Size size : {cv::Size(1, 1), cv::Size(37, 23), cv::Size(16, 64)}) {
        const cv::Mat image = smooth_u8(size.height, size.width, channels, seed++);
        Bytes mine;
        ASSERT_TRUE(jpeg_cpu::encode(image, quality, mine));
        EXPECT_EQ(mine, encode(image, {cv::IMWRITE_JPEG_QUALITY, quality}))
            << size << " x" << channels << " quality " << quality;
      }
    }
  }
  // A view into a larger image: rows with padding between them.
  const cv::Mat big = smooth_u8(40, 50, 3, 5);
  const cv::Mat view = big(cv::Rect(3, 4, 31, 17));
  Bytes mine;
  ASSERT_TRUE(jpeg_cpu::encode(view, 90, mine));
  EXPECT_EQ(mine, encode(view.clone(), {cv::IMWRITE_JPEG_QUALITY, 90}));
}

// The restart interval of a JPEG's DRI segment; 0 where it has none.
int restart_interval_of(const Bytes& jpeg) {
  for (std::size_t at = 2; at + 4 <= jpeg.size() && jpeg[at] == 0xFF && jpeg[at + 1] != 0xDA;
       at += 2 + ((std::size_t{jpeg[at + 2]} << 8) | jpeg[at + 3]))
    if (jpeg[at + 1] == 0xDD) return (jpeg[at + 4] << 8) | jpeg[at + 5];
  return 0;
}

// On several threads, bands of MCU rows joined by restart markers: the bytes OpenCV writes
// with that restart interval, and the pixels of OpenCV's file without one.
TEST(JpegCpuCodec, EncodesInBandsOnSeveralThreads) {
  struct Shape {
    int rows, cols, channels, threads, quality;
  };
  for (const Shape& shape : {Shape{700, 1001, 3, 4, 95}, Shape{517, 333, 1, 3, 50}, Shape{480, 640, 4, 2, 90},
                             Shape{1300, 37, 3, 8, 75}}) {
    const cv::Mat image = smooth_u8(shape.rows, shape.cols, shape.channels, static_cast<unsigned>(shape.rows));
    Bytes mine;
    ASSERT_TRUE(jpeg_cpu::encode(image, shape.quality, mine, shape.threads));
    const int interval = restart_interval_of(mine);
    ASSERT_GT(interval, 0) << "one band: " << shape.cols << "x" << shape.rows;
    EXPECT_EQ(mine, encode(image, {cv::IMWRITE_JPEG_QUALITY, shape.quality, cv::IMWRITE_JPEG_RST_INTERVAL, interval}))
        << shape.cols << "x" << shape.rows << "x" << shape.channels;
    const cv::Mat plain = cv::imdecode(encode(image, {cv::IMWRITE_JPEG_QUALITY, shape.quality}), cv::IMREAD_UNCHANGED);
    EXPECT_TRUE(same_pixels(cv::imdecode(mine, cv::IMREAD_UNCHANGED), plain)) << shape.cols << "x" << shape.rows;
    EXPECT_TRUE(ours(mine)) << "libjpeg warned about the joined file";
  }
  // Too few rows for two bands of 128: one JPEG, as one thread writes it.
  const cv::Mat small = smooth_u8(200, 300, 3, 5);
  Bytes one, many;
  ASSERT_TRUE(jpeg_cpu::encode(small, 95, one, 1));
  ASSERT_TRUE(jpeg_cpu::encode(small, 95, many, 8));
  EXPECT_EQ(one, many);
  EXPECT_EQ(restart_interval_of(many), 0);
}

TEST(JpegCpuCodec, DeclinesToEncodeOtherDepths) {
  Bytes bytes;
  EXPECT_FALSE(jpeg_cpu::encode(cv::Mat(4, 4, CV_16UC3, cv::Scalar::all(7)), 95, bytes));
  EXPECT_FALSE(jpeg_cpu::encode(cv::Mat(4, 4, CV_32FC1, cv::Scalar::all(0.5)), 95, bytes));
  EXPECT_FALSE(jpeg_cpu::encode(cv::Mat(4, 4, CV_8UC2, cv::Scalar::all(1)), 95, bytes));
  EXPECT_FALSE(jpeg_cpu::encode(cv::Mat(), 95, bytes));
}

}  // namespace
}  // namespace gpufilter::io::jpeg_cpu_codec_test
