// The table of suffixes the tool knows (io/src/codecs/image_formats.hpp): one entry a
// suffix, and what the rest of io asks of it.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "codecs/image_formats.hpp"
#include "gpufilter/io/file_suffix.hpp"
#include "gpufilter/io/image_metadata.hpp"

namespace gpufilter::io {
namespace {

TEST(ImageFormats, EachSuffixOnceInLowerCaseWithItsDot) {
  std::set<std::string> seen;
  for (const SuffixEntry& entry : suffix_entries()) {
    const std::string suffix = entry.suffix;
    EXPECT_TRUE(seen.insert(suffix).second) << suffix << " twice";
    ASSERT_GE(suffix.size(), 2u);
    EXPECT_EQ(suffix.front(), '.');
    for (char c : suffix.substr(1)) EXPECT_TRUE(c >= 'a' && c <= 'z') << suffix;
    EXPECT_EQ(suffix_entry(suffix), &entry);
  }
  EXPECT_EQ(suffix_entry(".gif"), nullptr);
}

TEST(ImageFormats, PathsNameTheirFormatWhateverTheCase) {
  for (const char* name : {"a.jpg", "a.JPG", "a.jpeg", "a.Jpe"}) EXPECT_TRUE(is_jpeg_path(name)) << name;
  for (const char* name : {"a.png", "a.PNG"}) EXPECT_TRUE(is_png_path(name)) << name;
  for (const char* name : {"a.jpg2", "a", "a.tif", "jpg"}) EXPECT_FALSE(is_jpeg_path(name)) << name;
  EXPECT_FALSE(is_png_path("a.jpg"));
}

TEST(ImageFormats, TheListsMessagesOfferKeepTheirOrder) {
  const auto offered = suffixes_where([](const SuffixEntry& entry) { return entry.offered; });
  ASSERT_GE(offered.size(), 3u);
  EXPECT_EQ(offered[0], ".png");
  EXPECT_EQ(offered[1], ".jpg");
  const auto lossless = suffixes_where([](const SuffixEntry& entry) { return entry.lossless_choice; });
  ASSERT_FALSE(lossless.empty());
  EXPECT_EQ(lossless.front(), ".png");
  for (const std::string& suffix : lossless) EXPECT_NE(suffix_entry(suffix)->format, ImageFormat::Jpeg) << suffix;
}

TEST(ImageFormats, MetadataGoesWhereTheFormatHasRoomForIt) {
  for (const char* suffix : {".jpg", ".jpeg", ".jpe", ".png", ".tif", ".tiff", ".webp"})
    EXPECT_TRUE(suffix_holds_metadata(suffix)) << suffix;
  for (const char* suffix : {".bmp", ".ppm", ".exr", ".hdr", ".gif", ""})
    EXPECT_FALSE(suffix_holds_metadata(suffix)) << suffix;
}

}  // namespace
}  // namespace gpufilter::io
