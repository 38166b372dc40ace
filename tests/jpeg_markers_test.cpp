// The tool's JPEG header reader (which files nvJPEG may take, and their EXIF orientation)
// and the orientation steps it applies on the GPU, checked on the CPU against files
// OpenCV writes and against OpenCV's own upright decoding.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdint>
#include <vector>

#include "gpufilter/images.hpp"
#include "gpufilter/io/jpeg_markers.hpp"
#include "gpufilter/io/jpeg_orientation.hpp"
#include "jpeg_test_bytes.hpp"

namespace gpufilter::io::jpeg_markers_test {
namespace {

using namespace jpeg_test;

std::optional<JpegHeader> parse(const Bytes& bytes) { return parse_jpeg_header(bytes.data(), bytes.size()); }

// A header-only JPEG: SOI, optional segments, a frame of `marker`, then SOS.
Bytes frame_only(unsigned char marker, int precision, const std::vector<JpegComponent>& components,
                 const std::vector<Bytes>& before = {}) {
  Bytes jpeg{0xFF, 0xD8};
  for (const Bytes& s : before) jpeg.insert(jpeg.end(), s.begin(), s.end());
  Bytes sof{static_cast<unsigned char>(precision), 0, 16, 0, 24, static_cast<unsigned char>(components.size())};
  for (const JpegComponent& c : components) {
    sof.push_back(static_cast<unsigned char>(c.id));
    sof.push_back(static_cast<unsigned char>((c.horizontal << 4) | c.vertical));
    sof.push_back(0);
  }
  const Bytes frame = segment(marker, sof);
  jpeg.insert(jpeg.end(), frame.begin(), frame.end());
  const Bytes sos = segment(0xDA, Bytes{1, 1, 0, 0, 63, 0});
  jpeg.insert(jpeg.end(), sos.begin(), sos.end());
  return jpeg;
}

const std::vector<JpegComponent> kYcc420{{1, 2, 2}, {2, 1, 1}, {3, 1, 1}};

TEST(JpegMarkers, ColourJpegFromOpenCv) {
  const auto header = parse(encode(random_u8(37, 53, 3, 1), {cv::IMWRITE_JPEG_QUALITY, 95}));
  ASSERT_TRUE(header);
  EXPECT_EQ(header->coding, JpegCoding::Baseline);
  EXPECT_EQ(header->precision, 8);
  EXPECT_EQ(header->width, 53);
  EXPECT_EQ(header->height, 37);
  ASSERT_EQ(header->components.size(), 3u);
  EXPECT_EQ(header->components[0].horizontal, 2) << "OpenCV writes 4:2:0";
  EXPECT_EQ(header->components[0].vertical, 2);
  EXPECT_EQ(header->components[1].horizontal, 1);
  EXPECT_TRUE(header->jfif);
  EXPECT_EQ(header->orientation, 1);
  EXPECT_TRUE(gpu_jpeg_decision(*header).gpu) << gpu_jpeg_decision(*header).reason;
}

TEST(JpegMarkers, GrayAndProgressiveGoToTheGpu) {
  const auto gray = parse(encode(random_u8(20, 30, 1, 2)));
  ASSERT_TRUE(gray);
  EXPECT_EQ(gray->components.size(), 1u);
  EXPECT_TRUE(gpu_jpeg_decision(*gray).gpu);
  const auto progressive = parse(encode(random_u8(20, 30, 3, 3), {cv::IMWRITE_JPEG_PROGRESSIVE, 1}));
  ASSERT_TRUE(progressive);
  EXPECT_EQ(progressive->coding, JpegCoding::Progressive);
  EXPECT_TRUE(gpu_jpeg_decision(*progressive).gpu) << "the CUDA decoder takes progressive files";
}

TEST(JpegMarkers, FilesNvjpegDoesNotDecodeAsOpenCvDoStayOnTheCpu) {
  EXPECT_FALSE(gpu_jpeg_decision(*parse(frame_only(0xC3, 8, kYcc420))).gpu) << "lossless";
  EXPECT_FALSE(gpu_jpeg_decision(*parse(frame_only(0xC9, 8, kYcc420))).gpu) << "arithmetic";
  EXPECT_FALSE(gpu_jpeg_decision(*parse(frame_only(0xC1, 12, kYcc420))).gpu) << "12-bit";
  EXPECT_TRUE(gpu_jpeg_decision(*parse(frame_only(0xC1, 8, kYcc420))).gpu) << "8-bit extended Huffman";
  const std::vector<JpegComponent> cmyk{{1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {4, 1, 1}};
  EXPECT_FALSE(gpu_jpeg_decision(*parse(frame_only(0xC0, 8, cmyk))).gpu) << "CMYK";
  const Bytes adobe_rgb = segment(0xEE, Bytes{'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 0});
  const auto rgb = parse(frame_only(0xC0, 8, {{1, 1, 1}, {2, 1, 1}, {3, 1, 1}}, {adobe_rgb}));
  ASSERT_TRUE(rgb);
  EXPECT_EQ(rgb->adobe_transform, 0);
  EXPECT_FALSE(gpu_jpeg_decision(*rgb).gpu) << "Adobe transform 0: RGB";
  EXPECT_FALSE(gpu_jpeg_decision(*parse(frame_only(0xC0, 8, {{'R', 1, 1}, {'G', 1, 1}, {'B', 1, 1}}))).gpu)
      << "component ids R, G, B without JFIF: RGB";
  EXPECT_FALSE(gpu_jpeg_decision(*parse(frame_only(0xC0, 8, {{1, 1, 1}, {2, 2, 1}, {3, 1, 1}}))).gpu)
      << "chroma sampled finer than luma";
  EXPECT_FALSE(gpu_jpeg_decision(*parse(frame_only(0xC0, 8, {{1, 3, 1}, {2, 1, 1}, {3, 1, 1}}))).gpu)
      << "a luma factor nvJPEG does not name";
  EXPECT_TRUE(gpu_jpeg_decision(*parse(frame_only(0xC0, 8, {{1, 4, 1}, {2, 1, 1}, {3, 1, 1}}))).gpu) << "4:1:1";
}

TEST(JpegMarkers, BrokenHeadersAreNoJpeg) {
  EXPECT_FALSE(parse(Bytes{}));
  EXPECT_FALSE(parse(Bytes{'n', 'o', 't', ' ', 'a', ' ', 'j', 'p', 'e', 'g'}));
  EXPECT_FALSE(parse(Bytes{0xFF, 0xD8, 0xFF, 0xD9})) << "SOI, EOI: no frame";
  const Bytes good = encode(random_u8(8, 8, 3, 4));
  for (std::size_t cut : {std::size_t{3}, std::size_t{6}, std::size_t{25}, std::size_t{100}}) {
    const Bytes truncated(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(std::min(cut, good.size())));
    EXPECT_FALSE(parse(truncated)) << "cut at " << cut;
  }
  Bytes short_length{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01};
  EXPECT_FALSE(parse(short_length)) << "a segment length below 2";
  Bytes garbage_between = good;
  garbage_between.insert(garbage_between.begin() + 2, {0x12, 0x34});
  EXPECT_FALSE(parse(garbage_between)) << "no marker where one must be";
  const auto no_components = parse(frame_only(0xC0, 8, {}));
  ASSERT_TRUE(no_components);
  EXPECT_FALSE(gpu_jpeg_decision(*no_components).gpu) << "a frame of no components";
}

// Where the frame header, the scan header and the scan's data are, in the bytes given.
TEST(JpegMarkers, FrameAndScanOffsets) {
  const Bytes jpeg = with_segments_after_soi(encode(random_u8(20, 30, 3, 5)), {segment(0xE1, exif_payload(6, true))});
  const std::optional<JpegHeader> header = parse(jpeg);
  ASSERT_TRUE(header);
  EXPECT_EQ(jpeg[header->frame_at], 0xFF);
  EXPECT_EQ(jpeg[header->frame_at + 1], 0xC0);
  EXPECT_EQ(jpeg[header->scan_at], 0xFF);
  EXPECT_EQ(jpeg[header->scan_at + 1], 0xDA);
  EXPECT_EQ(header->scan_data_at, header->scan_at + 2 + ((jpeg[header->scan_at + 2] << 8) | jpeg[header->scan_at + 3]));
  EXPECT_LT(header->frame_at, header->scan_at);
  // Cut inside the scan header: the frame is known, the scan is not.
  const std::optional<JpegHeader> cut = parse(Bytes(jpeg.begin(), jpeg.begin() + static_cast<std::ptrdiff_t>(header->scan_at + 3)));
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->frame_at, header->frame_at);
  EXPECT_EQ(cut->scan_data_at, 0u);
  EXPECT_TRUE(starts_like_jpeg(jpeg.data(), jpeg.size()));
  EXPECT_FALSE(starts_like_jpeg(jpeg.data(), 2));
  EXPECT_FALSE(starts_like_jpeg(jpeg.data() + 1, jpeg.size() - 1));
}

TEST(JpegMarkers, ExifOrientationInBothByteOrders) {
  const Bytes jpeg = encode(random_u8(10, 12, 3, 5));
  for (int orientation = 1; orientation <= 8; ++orientation) {
    for (bool little : {false, true}) {
      const auto header = parse(with_segments_after_soi(
          jpeg, {segment(0xE1, exif_payload(static_cast<std::uint16_t>(orientation), little, orientation % 3))}));
      ASSERT_TRUE(header);
      EXPECT_EQ(header->orientation, orientation) << (little ? "II" : "MM");
    }
  }
}

TEST(JpegMarkers, ExifOrientationOddities) {
  const Bytes jpeg = encode(random_u8(10, 12, 3, 6));
  auto orientation_of = [&](const std::vector<Bytes>& segments) { return parse(with_segments_after_soi(jpeg, segments))->orientation; };
  EXPECT_EQ(orientation_of({segment(0xE1, exif_payload(9, false))}), 1) << "out of range";
  EXPECT_EQ(orientation_of({segment(0xE1, exif_payload(0, true))}), 1) << "out of range";
  Bytes truncated = exif_payload(6, false);
  truncated.resize(truncated.size() - 10);
  EXPECT_EQ(orientation_of({segment(0xE1, truncated)}), 1) << "IFD cut short";
  Bytes bad_magic = exif_payload(6, false);
  bad_magic[9] = 43;
  EXPECT_EQ(orientation_of({segment(0xE1, bad_magic)}), 1) << "not TIFF's 42";
  const Bytes xmp = segment(0xE1, Bytes{'h', 't', 't', 'p', ':', '/', '/', 'n', 's', '.', 'a', 'd', 'o', 'b', 'e', 0});
  EXPECT_EQ(orientation_of({xmp, segment(0xE1, exif_payload(6, false))}), 1)
      << "OpenCV reads the first APP1 segment only";
  EXPECT_EQ(orientation_of({segment(0xE1, exif_payload(6, false)), segment(0xE1, exif_payload(3, false))}), 6);
  EXPECT_EQ(exif_orientation(nullptr, 0), 1);
}

// OpenCV's decode turned upright (IMREAD_COLOR applies the orientation) equals the
// stored pixels (IMREAD_UNCHANGED) taken through orientation_steps by the library's CPU
// reference: the steps the GPU path runs are OpenCV's.
TEST(JpegOrientation, StepsMatchOpenCvsUprightDecode) {
  const cv::Mat stored = random_u8(9, 14, 3, 7);
  const Bytes plain = encode(stored, {cv::IMWRITE_JPEG_QUALITY, 100});
  for (int orientation = 1; orientation <= 8; ++orientation) {
    SCOPED_TRACE(orientation);
    const Bytes jpeg = with_segments_after_soi(
        plain, {segment(0xE1, exif_payload(static_cast<std::uint16_t>(orientation), orientation % 2 == 0))});
    const cv::Mat as_stored = cv::imdecode(jpeg, cv::IMREAD_UNCHANGED);
    const cv::Mat upright = cv::imdecode(jpeg, cv::IMREAD_COLOR);
    ASSERT_FALSE(as_stored.empty());
    EXPECT_EQ(orientation_swaps_sides(orientation), upright.cols == as_stored.rows && upright.cols != as_stored.cols);
    cv::Mat current = as_stored.clone();
    const PixelFormat format{ChannelType::U8, 3};
    for (const OrientationStep step : orientation_steps(orientation)) {
      const bool swaps = step == OrientationStep::Transpose || step == OrientationStep::Rotate90 ||
                         step == OrientationStep::Rotate270;
      cv::Mat next(swaps ? current.cols : current.rows, swaps ? current.rows : current.cols, current.type());
      ImageView src{current.data, current.cols, current.rows, current.step[0], format};
      ImageView dst{next.data, next.cols, next.rows, next.step[0], format};
      apply_orientation_step(step, src, dst, /*on_gpu=*/false);
      current = next;
    }
    ASSERT_EQ(current.size(), upright.size());
    EXPECT_EQ(cv::norm(current, upright, cv::NORM_INF), 0.0);
  }
}

TEST(JpegOrientation, OutOfRangeIsNoStep) {
  EXPECT_TRUE(orientation_steps(0).empty());
  EXPECT_TRUE(orientation_steps(1).empty());
  EXPECT_TRUE(orientation_steps(9).empty());
  EXPECT_EQ(orientation_steps(7).size(), 2u);
}

}  // namespace
}  // namespace gpufilter::io::jpeg_markers_test
