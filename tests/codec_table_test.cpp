// The codecs' table (io/src/codecs/codec.hpp): each codec recognises its own formats from
// a file's first bytes, reads the headers it knows without the pixels, and says where its
// files keep metadata; JPEG's has a GPU side.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "codecs/codec.hpp"
#include "codecs/image_signatures.hpp"

namespace gpufilter::io {
namespace {

std::string probe_of(const std::string& bytes) {
  return codecs::probe(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

TEST(CodecTable, EachFormatIsKnownByItsFirstBytes) {
  EXPECT_EQ(probe_of(std::string("\x89PNG\r\n\x1a\n", 8) + "rest"), ".png");
  EXPECT_EQ(probe_of("\xff\xd8\xff\xe0rest"), ".jpg");
  EXPECT_EQ(probe_of(std::string("II*\0rest", 8)), ".tif");
  EXPECT_EQ(probe_of(std::string("MM\0*rest", 8)), ".tif");
  EXPECT_EQ(probe_of("RIFF\x10\x20\x30\x40WEBPVP8 "), ".webp");
  EXPECT_EQ(probe_of("BM6\x10"), ".bmp");
  EXPECT_EQ(probe_of("P5\n3 2\n255\n"), ".pgm");
  std::string dicom(132, '\0');
  dicom.replace(128, 4, "DICM");
  EXPECT_EQ(probe_of(dicom), ".dcm");
  EXPECT_EQ(probe_of("GIF89a"), "") << "no codec of the table reads GIF";
  EXPECT_EQ(probe_of("\x89PN"), "") << "a PNG signature cut short is not one";
  EXPECT_TRUE(starts_like_image(reinterpret_cast<const unsigned char*>("\xff\xd8\xff"), 3));
}

TEST(CodecTable, EachFormatSaysWhereItKeepsMetadata) {
  for (const char* suffix : {".png", ".jpg", ".jpeg", ".tif", ".tiff"}) {
    const codecs::MetadataPlaces places = codecs::metadata_places(suffix);
    EXPECT_TRUE(places.exif && places.iptc && places.xmp && places.icc) << suffix;
  }
  const codecs::MetadataPlaces webp = codecs::metadata_places(".webp");
  EXPECT_TRUE(webp.exif && webp.xmp && webp.icc);
  EXPECT_FALSE(webp.iptc) << "WebP has no place for IPTC";
  EXPECT_TRUE(codecs::metadata_places(".tif").upright_on_read) << "OpenCV turns a TIFF upright by its tag";
  EXPECT_FALSE(codecs::metadata_places(".jpg").upright_on_read);
  EXPECT_TRUE(codecs::metadata_places(".tiff").exif_order_is_the_files);
  for (const char* suffix : {".bmp", ".ppm", ".exr", ".hdr", ".pfm", ""})
    EXPECT_FALSE(codecs::metadata_places(suffix).any()) << suffix;
}

TEST(CodecTable, JpegsCodecHasTheGpuSide) {
  for (const char* suffix : {".png", ".tif", ".bmp", ".webp"})
    EXPECT_EQ(codecs::gpu_codec(suffix, 0, nullptr), nullptr) << suffix;
  if (!gpu_jpeg_built()) {  // with nvJPEG, whether it starts is the device's to say
    EXPECT_EQ(codecs::gpu_codec(".jpg", 0, nullptr), nullptr) << "a build without nvJPEG has no GPU side";
  }
}

class CodecTableFiles : public ::testing::Test {
 protected:
  std::filesystem::path dir_ = std::filesystem::temp_directory_path() /
                               ("gpufilter_codec_table_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const cv::Mat& image) {
    const std::string path = (dir_ / name).string();
    EXPECT_TRUE(cv::imwrite(path, image)) << path;
    return path;
  }
};

TEST_F(CodecTableFiles, HeadersSayTheSizeBeforeTheImageIsDecoded) {
  const std::optional<codecs::ImageHeader> png = codecs::header(write("a.png", cv::Mat(23, 41, CV_16UC3, cv::Scalar(1, 2, 3))));
  ASSERT_TRUE(png);
  EXPECT_EQ(png->format, ".png");
  EXPECT_EQ(png->width, 41u);
  EXPECT_EQ(png->height, 23u);
  EXPECT_EQ(png->decoded_bytes, 41u * 23u * 3u * 2u);
  EXPECT_EQ(png->layout, ChannelLayout::AsDecoded);

  const std::optional<codecs::ImageHeader> jpeg = codecs::header(write("a.jpg", cv::Mat(17, 9, CV_8UC3, cv::Scalar(9))));
  ASSERT_TRUE(jpeg);
  EXPECT_EQ(jpeg->format, ".jpg");
  EXPECT_EQ(jpeg->width, 9u);
  EXPECT_EQ(jpeg->height, 17u);

  EXPECT_FALSE(codecs::header(write("a.bmp", cv::Mat(5, 5, CV_8UC3, cv::Scalar(7)))))
      << "a format whose codec reads no header has none";
  EXPECT_FALSE(codecs::header((dir_ / "missing.png").string()));
}

}  // namespace
}  // namespace gpufilter::io
