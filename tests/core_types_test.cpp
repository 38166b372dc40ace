// Formats, views, borders and the library's argument checks: all without a GPU.
#include <gtest/gtest.h>

#include "gpufilter/gpufilter.hpp"

namespace gpufilter {
namespace {

TEST(PixelFormats, NamesRoundTrip) {
  EXPECT_EQ(all_pixel_formats().size(), 9u);
  for (const PixelFormat& f : all_pixel_formats()) EXPECT_EQ(parse_pixel_format(f.name()), f);
  EXPECT_EQ(parse_pixel_format("u16x3").pixel_bytes(), 6u);
  EXPECT_EQ(parse_pixel_format("f32x4").pixel_bytes(), 16u);
  EXPECT_THROW(parse_pixel_format("u8x2"), Error);
  EXPECT_THROW(parse_pixel_format("rgb"), Error);
}

TEST(BorderModes, NamesRoundTrip) {
  for (BorderMode m : all_border_modes()) EXPECT_EQ(parse_border_mode(to_string(m)), m);
  EXPECT_THROW(parse_border_mode("mirror"), Error);
}

TEST(ImageViews, SubviewSharesMemoryAndChecksBounds) {
  unsigned char memory[10 * 64] = {};
  const ImageView parent{memory, 20, 10, 64, PixelFormat{ChannelType::U16, 3}};
  const ImageView sub = parent.subview(3, 2, 5, 4);
  EXPECT_EQ(sub.data, memory + 2 * 64 + 3 * 6);
  EXPECT_EQ(sub.pitch, 64u);
  EXPECT_EQ(sub.width, 5);
  EXPECT_EQ(sub.row_bytes(), 30u);
  EXPECT_THROW(parent.subview(16, 0, 5, 1), Error);
  EXPECT_THROW(parent.subview(0, 0, 0, 1), Error);
  EXPECT_THROW(parent.subview(-1, 0, 2, 2), Error);
  EXPECT_NO_THROW(parent.subview(15, 6, 5, 4));
}

TEST(ImageViews, ValidationNamesTheProblem) {
  unsigned char memory[64] = {};
  EXPECT_THROW(validate_view(ImageView{}, "source"), Error);
  EXPECT_THROW(validate_view(ImageView{memory, 8, 1, 4, PixelFormat{}}, "source"), Error);  // pitch < row
  EXPECT_NO_THROW(validate_view(ImageView{memory, 8, 1, 8, PixelFormat{}}, "source"));
}

TEST(GpuOps, MismatchedViewsAreRefusedBeforeAnyLaunch) {
  unsigned char a[64] = {}, b[64] = {};
  const ImageView src{a, 4, 4, 16, PixelFormat{ChannelType::U8, 4}};
  const ImageView small{b, 3, 4, 16, PixelFormat{ChannelType::U8, 4}};
  try {
    gaussian_blur(src, small, GaussianParams{});
    FAIL() << "mismatched sizes were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("4x4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(gaussian_blur(src, src, GaussianParams{}), Error);
  EXPECT_THROW(gaussian_blur(src, small, GaussianParams{-1.0, 0}), Error);
}

TEST(Devices, QueriesNeverThrow) {
  EXPECT_NO_THROW(device_count());
  EXPECT_FALSE(device_description().empty());
  if (!has_device()) {
    EXPECT_FALSE(no_device_reason().empty());
  }
}

TEST(HostImages, WorkWithOrWithoutAGpu) {
  HostImage image(33, 7, PixelFormat{ChannelType::F32, 3});
  EXPECT_EQ(image.view().pitch, 33u * 12u);
  EXPECT_EQ(image.pinned(), has_device());
  HostImage moved = std::move(image);
  EXPECT_EQ(image.view().data, nullptr);
  EXPECT_NE(moved.view().data, nullptr);
}

}  // namespace
}  // namespace gpufilter
