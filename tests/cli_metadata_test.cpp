// IN's metadata in OUT, end to end (--device cpu): EXIF, IPTC, XMP and the ICC profile
// carried between every pair of JPEG, PNG, TIFF and WebP files, as far as OUT's format
// holds each kind; the orientation reset where the pixels were turned upright; the EXIF
// pixel dimensions following OUT's size; --strip; the alpha tag of an RGBA TIFF; and no
// temporary file while OUT is being encoded. Read back with Exiv2, as written.
#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <exiv2/exiv2.hpp>

#include <signal.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_util.hpp"

namespace gpufilter::cli_test {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kFormats = {".jpg", ".png", ".tif", ".webp"};

// A minimal valid ICC profile: the 128-byte header (size, version 4.3, a display class,
// RGB data, XYZ connection space, D50 illuminant, the "acsp" signature) and an empty tag
// table, with a distinctive creator; enough for Exiv2 and libpng to take it.
std::vector<unsigned char> icc_profile() {
  std::vector<unsigned char> icc(132, 0);
  const auto put = [&](std::size_t at, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) icc[at + static_cast<std::size_t>(i)] = static_cast<unsigned char>(value >> (24 - 8 * i));
  };
  const auto text = [&](std::size_t at, const char* four) {
    for (int i = 0; i < 4; ++i) icc[at + static_cast<std::size_t>(i)] = static_cast<unsigned char>(four[i]);
  };
  put(0, 132);
  put(8, 0x04300000);
  text(12, "mntr");
  text(16, "RGB ");
  text(20, "XYZ ");
  text(36, "acsp");
  put(68, 0x0000F6D6);  // D50: X, Y, Z in s15.16
  put(72, 0x00010000);
  put(76, 0x0000D32D);
  text(80, "gpft");  // creator
  return icc;
}

struct Metadata {
  std::string artist, exif_copyright, xmp_rights, iptc_copyright;
  long orientation = 0;
  long pixel_x = 0, pixel_y = 0;
  long extra_samples = 0;
  long width = 0, height = 0;  // the image as stored, whatever its orientation
  std::vector<unsigned char> icc;
};

std::string exif_text(const Exiv2::ExifData& exif, const char* key) {
  const auto found = exif.findKey(Exiv2::ExifKey(key));
  return found == exif.end() ? "" : found->toString();
}
long exif_number(const Exiv2::ExifData& exif, const char* key) {
  const auto found = exif.findKey(Exiv2::ExifKey(key));
  return found == exif.end() ? 0 : found->toLong();
}

Metadata read_metadata(const fs::path& file) {
  Exiv2::XmpParser::initialize();
  Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(file.string());
  image->readMetadata();
  Metadata found;
  found.width = image->pixelWidth();
  found.height = image->pixelHeight();
  const Exiv2::ExifData& exif = image->exifData();
  found.artist = exif_text(exif, "Exif.Image.Artist");
  found.exif_copyright = exif_text(exif, "Exif.Image.Copyright");
  found.orientation = exif_number(exif, "Exif.Image.Orientation");
  found.pixel_x = exif_number(exif, "Exif.Photo.PixelXDimension");
  found.pixel_y = exif_number(exif, "Exif.Photo.PixelYDimension");
  found.extra_samples = exif_number(exif, "Exif.Image.ExtraSamples");
  const auto rights = image->xmpData().findKey(Exiv2::XmpKey("Xmp.dc.rights"));
  if (rights != image->xmpData().end()) found.xmp_rights = rights->toString();
  const auto copyright = image->iptcData().findKey(Exiv2::IptcKey("Iptc.Application2.Copyright"));
  if (copyright != image->iptcData().end()) found.iptc_copyright = copyright->toString();
  if (image->iccProfileDefined())
    found.icc.assign(image->iccProfile()->pData_, image->iccProfile()->pData_ + image->iccProfile()->size_);
  return found;
}

// Writes every kind the file's format holds into `file` (IPTC: all but WebP).
void add_metadata(const fs::path& file, std::uint16_t orientation, int width, int height) {
  Exiv2::XmpParser::initialize();
  Exiv2::Image::AutoPtr image = Exiv2::ImageFactory::open(file.string());
  image->readMetadata();
  Exiv2::ExifData& exif = image->exifData();
  exif["Exif.Image.Orientation"] = orientation;
  exif["Exif.Image.Artist"] = "A. Photographer";
  exif["Exif.Image.Copyright"] = "(c) 2024 A. Photographer";
  exif["Exif.Photo.PixelXDimension"] = static_cast<std::uint32_t>(width);
  exif["Exif.Photo.PixelYDimension"] = static_cast<std::uint32_t>(height);
  image->xmpData()["Xmp.dc.rights"] = "lang=x-default All rights reserved";
  if (file.extension() != ".webp") image->iptcData()["Iptc.Application2.Copyright"] = "(c) 2024 Rights Holder";
  image->writeMetadata();
  // The profile in a second pass: Exiv2 0.27 misnames it in a WebP that had no VP8X
  // header before the write (the tool works around that; the test need not).
  image = Exiv2::ImageFactory::open(file.string());
  image->readMetadata();
  std::vector<unsigned char> icc = icc_profile();
  Exiv2::DataBuf profile(icc.data(), static_cast<long>(icc.size()));
  image->setIccProfile(profile);
  image->writeMetadata();
}

class CliMetadataTest : public ::testing::Test {
 protected:
  CliMetadataTest() { ::setenv("GPUFILTER_SERVER", "off", 1); }

  ProcessResult gpufilter(const std::vector<std::string>& args, const ProcessOptions& options = {}) {
    return run_process(GPUFILTER_CLI_PATH, args, capture_.path(), options);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // A 24x16 photo in `suffix`'s format with every kind of metadata it holds, stored
  // sideways (orientation 6: turn 90 degrees clockwise to view).
  std::string tagged_input(const std::string& name, const std::string& suffix) {
    const std::string file = path(name + suffix);
    EXPECT_TRUE(cv::imwrite(file, random_image(16, 24, CV_8UC3, 41))) << file;
    add_metadata(file, 6, 24, 16);
    return file;
  }

  ScratchDir dir_;
  ScratchDir capture_;
};

// Every pair, through copy and through a filter: each kind OUT's format holds comes out
// as it went in. A JPEG input is turned upright on read, so its orientation becomes 1 and
// its sides swap; other formats keep their stored pixels and their tag.
TEST_F(CliMetadataTest, EveryFormatPairKeepsWhatOutHolds) {
  const std::vector<unsigned char> icc = icc_profile();
  for (const std::string& in_suffix : kFormats) {
    const std::string input = tagged_input("in", in_suffix);
    const Metadata given = read_metadata(input);
    ASSERT_EQ(given.artist, "A. Photographer") << in_suffix;
    ASSERT_EQ(given.icc, icc) << in_suffix;
    // OpenCV turns a TIFF upright by its orientation tag, as it does a JPEG.
    const bool turned = in_suffix == ".jpg" || in_suffix == ".tif";
    for (const std::string& out_suffix : kFormats) {
      for (const char* op : {"copy", "blur"}) {
        SCOPED_TRACE(std::string(op) + " " + in_suffix + " -> " + out_suffix);
        const std::string output = path(std::string("out-") + op + in_suffix.substr(1) + out_suffix);
        const ProcessResult run = gpufilter({op, input, output, "--device", "cpu"});
        ASSERT_EQ(run.exit_code, 0) << run.err;
        EXPECT_EQ(run.err, "");
        ASSERT_FALSE(cv::imread(output, cv::IMREAD_UNCHANGED).empty());
        const Metadata kept = read_metadata(output);
        ASSERT_EQ(kept.width, turned ? 16 : 24);
        EXPECT_EQ(kept.artist, "A. Photographer");
        EXPECT_EQ(kept.exif_copyright, "(c) 2024 A. Photographer");
        EXPECT_EQ(kept.orientation, turned ? 1 : 6);
        EXPECT_EQ(kept.pixel_x, kept.width) << "the EXIF size is OUT's";
        EXPECT_EQ(kept.pixel_y, kept.height);
        EXPECT_EQ(kept.xmp_rights, "lang=\"x-default\" All rights reserved");
        const bool iptc_travels = in_suffix != ".webp" && out_suffix != ".webp";  // WebP holds no IPTC
        EXPECT_EQ(kept.iptc_copyright, iptc_travels ? "(c) 2024 Rights Holder" : "");
        EXPECT_EQ(kept.icc, icc);
        const std::string bytes = read_bytes(output);
        if (out_suffix == ".png") {  // a profile libpng takes: named
          const std::size_t chunk = bytes.find("iCCP");
          ASSERT_NE(chunk, std::string::npos);
          EXPECT_NE(bytes[chunk + 4], '\0') << "libpng drops an unnamed profile";
        }
        if (out_suffix == ".webp") {  // one VP8X header, the profile in its ICCP chunk
          EXPECT_EQ(bytes.find("VP8X", bytes.find("VP8X") + 1), std::string::npos);
          EXPECT_NE(bytes.find("ICCP"), std::string::npos);
        }
      }
    }
  }
}

TEST_F(CliMetadataTest, StripDropsEverything) {
  for (const std::string& in_suffix : kFormats) {
    const std::string input = tagged_input("in", in_suffix);
    for (const std::string& out_suffix : kFormats) {
      SCOPED_TRACE(in_suffix + " -> " + out_suffix);
      const std::string output = path("stripped-" + in_suffix.substr(1) + out_suffix);
      const ProcessResult run = gpufilter({"copy", input, output, "--device", "cpu", "--strip"});
      ASSERT_EQ(run.exit_code, 0) << run.err;
      const Metadata kept = read_metadata(output);
      EXPECT_EQ(kept.artist, "");
      EXPECT_EQ(kept.exif_copyright, "");
      EXPECT_EQ(kept.xmp_rights, "");
      EXPECT_EQ(kept.iptc_copyright, "");
      EXPECT_TRUE(kept.icc.empty());
    }
  }
  const ProcessResult help = gpufilter({"copy", "--help"});
  EXPECT_NE(help.out.find("--strip"), std::string::npos) << help.out;
}

// Pixels kept in their stored order keep the tag that turns them; a crop's OUT states
// the crop's size.
TEST_F(CliMetadataTest, OrientationAndSizeFollowThePixels) {
  const std::string input = tagged_input("in", ".jpg");
  ProcessResult run = gpufilter({"copy", input, path("stored.jpg"), "--device", "cpu", "--no-autorotate"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  Metadata kept = read_metadata(path("stored.jpg"));
  EXPECT_EQ(kept.orientation, 6);
  EXPECT_EQ(kept.pixel_x, 24);
  EXPECT_EQ(kept.pixel_y, 16);

  run = gpufilter({"crop", input, path("crop.png"), "--geometry", "10x7+2+3", "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  kept = read_metadata(path("crop.png"));
  EXPECT_EQ(kept.orientation, 1) << "cut from the upright pixels";
  EXPECT_EQ(kept.pixel_x, 10);
  EXPECT_EQ(kept.pixel_y, 7);
  EXPECT_EQ(kept.artist, "A. Photographer");
}

// OpenCV writes the fourth sample of an RGBA TIFF without saying it is alpha.
TEST_F(CliMetadataTest, RgbaTiffSaysItsAlphaIsUnassociated) {
  const std::string input = path("rgba.png");
  ASSERT_TRUE(cv::imwrite(input, random_image(9, 11, CV_8UC4, 43)));
  for (const char* strip : {"--strip", "--no-autorotate"}) {
    const std::string output = path(std::string("rgba") + strip + ".tif");
    const ProcessResult run = gpufilter({"copy", input, output, "--device", "cpu", strip});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(read_metadata(output).extra_samples, 2) << strip;
    EXPECT_EQ(cv::imread(output, cv::IMREAD_UNCHANGED).channels(), 4);
  }
}

// Metadata Exiv2 cannot read does not stop the image: OUT is written, with one warning
// naming IN.
TEST_F(CliMetadataTest, UnreadableMetadataIsAWarning) {
  std::vector<uchar> jpeg;
  ASSERT_TRUE(cv::imencode(".jpg", random_image(8, 8, CV_8UC3, 47), jpeg));
  // An APP1 Exif segment whose TIFF header is neither "II" nor "MM".
  const std::vector<uchar> app1{0xFF, 0xE1, 0x00, 0x12, 'E', 'x', 'i', 'f', 0, 0,
                                'X', 'X', 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00};
  jpeg.insert(jpeg.begin() + 2, app1.begin(), app1.end());
  write_bytes(path("broken.jpg"), std::string(jpeg.begin(), jpeg.end()));
  const ProcessResult run = gpufilter({"copy", path("broken.jpg"), path("out.png"), "--device", "cpu"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(cv::imread(path("out.png"), cv::IMREAD_UNCHANGED).empty());
  const auto lines = run.err_lines();
  ASSERT_EQ(lines.size(), 1u) << run.err;
  EXPECT_TRUE(lines[0].starts_with("gpufilter: warning: ")) << lines[0];
  EXPECT_TRUE(contains(lines[0], "broken.jpg")) << lines[0];
}

// The whole OUT is made in memory before its temporary file exists: a run killed while
// encoding leaves nothing behind.
TEST_F(CliMetadataTest, NoTemporaryFileWhileEncoding) {
  const std::string input = tagged_input("in", ".png");
  ProcessOptions options;
  options.env.push_back("GPUFILTER_TEST_PAUSE_AFTER_ENCODE_MS=60000");
  ChildProcess child(GPUFILTER_CLI_PATH, {"copy", input, path("out.png"), "--device", "cpu"}, capture_.path(), options);
  // A 24x16 image is encoded well within this; the run then waits in the hook.
  std::this_thread::sleep_for(std::chrono::seconds(3));
  ASSERT_TRUE(child.running());
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"in.png"}) << "no temporary file yet";
  child.send(SIGKILL);
  child.wait();
  EXPECT_EQ(dir_.entries(), std::vector<std::string>{"in.png"});
}

}  // namespace
}  // namespace gpufilter::cli_test
