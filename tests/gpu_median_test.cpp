// The median filter's kernels against the CPU reference, exactly: every variant, radius
// (the conformance suite runs the registry's 5x5 alone), format and border; sizes around
// the tiled kernel's 32x32 tile and its rows per thread, and around the walk's warps and
// strips; inputs of three values (windows full of ties); sources and destinations that
// are sub-views starting at odd columns, inside a guard band that must come back
// untouched.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter::gpu_median_test {
namespace {

struct Size {
  int width, height;
};
constexpr int kMargin = 6;  // columns and rows around the views: the guard band
const ExecContext kChecked{nullptr, true};

// Random values; with `levels` > 0 only that many of them, so windows hold many ties.
void fill(const ImageView& view, std::uint64_t seed, int levels) {
  testing::fill_random(view, seed);
  if (levels == 0) return;
  for (int y = 0; y < view.height; ++y)
    for (int i = 0; i < view.width * view.format.channels; ++i) switch (view.format.type) {
        case ChannelType::U8:
          view.row<std::uint8_t>(y)[i] = static_cast<std::uint8_t>(view.row<std::uint8_t>(y)[i] % levels);
          break;
        case ChannelType::U16:
          view.row<std::uint16_t>(y)[i] = static_cast<std::uint16_t>(view.row<std::uint16_t>(y)[i] % levels);
          break;
        case ChannelType::F32:
          view.row<float>(y)[i] = std::floor(view.row<float>(y)[i] * static_cast<float>(levels));
          break;
      }
}

// A non-zero constant, different per channel, so a kernel that ignores it fails.
Border test_border(BorderMode mode, PixelFormat format) {
  Border border;
  border.mode = mode;
  for (int c = 0; c < 4; ++c) border.value[static_cast<std::size_t>(c)] = format.max_value() * (c + 1) / 5.0;
  return border;
}

std::string name_of(PixelFormat format, Size size, int radius, BorderMode mode, MedianVariant variant) {
  return std::string(to_string(variant)) + " " + format.name() + " " + std::to_string(size.width) + "x" +
         std::to_string(size.height) + " radius " + std::to_string(radius) + " " + to_string(mode);
}

// Where the views start in their larger images: by default at odd columns, so no row of
// an 8- or 16-bit view starts on a whole word.
struct Columns {
  int src = 3, dst = 1;
};

// The GPU's whole destination buffer (the view at (columns.dst, 3) and the guard band
// around it) against the reference's; the source is the view at (columns.src, 2) of a
// larger image.
void expect_exact(PixelFormat format, Size size, int radius, BorderMode mode, MedianVariant variant, int levels = 0,
                  Columns columns = {}) {
  const Size outer{size.width + kMargin, size.height + kMargin};
  const Border border = test_border(mode, format);
  HostImage host_src(outer.width, outer.height, format);
  fill(host_src.view(), static_cast<std::uint64_t>(size.width) * 977 + static_cast<std::uint64_t>(size.height), levels);
  HostImage expected(outer.width, outer.height, format), initial(outer.width, outer.height, format),
      actual(outer.width, outer.height, format);
  testing::fill_random(expected.view(), 9u);
  std::memcpy(initial.view().data, expected.view().data,
              expected.view().pitch * static_cast<std::size_t>(outer.height));
  const ImageView expected_part = expected.view().subview(columns.dst, 3, size.width, size.height);
  reference::median_filter(host_src.view().subview(columns.src, 2, size.width, size.height), expected_part,
                           MedianParams{radius}, border);
  testing::poison_against(initial.view().subview(columns.dst, 3, size.width, size.height), expected_part);

  DeviceImage src(outer.width, outer.height, format), dst(outer.width, outer.height, format);
  copy_image_async(host_src.view(), src.view(), nullptr);
  copy_image_async(initial.view(), dst.view(), nullptr);
  median_filter(src.view().subview(columns.src, 2, size.width, size.height),
                dst.view().subview(columns.dst, 3, size.width, size.height), MedianParams{radius}, border, variant,
                kChecked);
  copy_image_async(dst.view(), actual.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  const testing::Difference diff = testing::compare(actual.view(), expected.view());
  EXPECT_TRUE(diff.within(0.0)) << name_of(format, size, radius, mode, variant) << ": " << diff.describe();
}

TEST(GpuMedian, EveryVariantRadiusFormatAndBorder) {
  for (MedianVariant variant : all_median_variants())
    for (int radius = 1; radius <= MedianParams::kMaxRadius; ++radius)
      for (const PixelFormat& format : all_pixel_formats())
        for (BorderMode mode : all_border_modes())
          for (const Size size : {Size{1, 1}, Size{2, 5}, Size{31, 33}, Size{70, 67}})
            expect_exact(format, size, radius, mode, variant);
}

// Widths around a tile (32 columns) and a thread's 2x2 block (the larger windows: odd
// widths and heights leave a block's right column or lower row outside), heights around
// a thread's rows (8 for 3x3, 2 for the larger windows) and a tile (32 rows).
TEST(GpuMedian, SizesAroundTheTile) {
  for (int radius = 1; radius <= MedianParams::kMaxRadius; ++radius)
    for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 4},
                                     PixelFormat{ChannelType::U16, 4}, PixelFormat{ChannelType::F32, 3}})
      for (int width : {1, 3, 31, 32, 33, 65})
        for (int height : {1, 2, 3, 4, 7, 8, 9, 31, 32, 33, 41})
          expect_exact(format, Size{width, height}, radius, BorderMode::Reflect101, MedianVariant::Tiled);
}

// The walk's 3x3: widths around a warp (32 columns) and a block (128), heights around its
// strip (32 rows), on every format and border.
TEST(GpuMedian, WalkSizesAroundItsStrips) {
  for (const PixelFormat& format : all_pixel_formats())
    for (BorderMode mode : all_border_modes())
      for (int width : {1, 2, 31, 32, 33, 127, 129})
        for (int height : {1, 2, 3, 31, 32, 33, 34, 65})
          expect_exact(format, Size{width, height}, 1, mode, MedianVariant::Walk);
}

// 8- and 16-bit gray walk a word a lane (4 or 2 pixels), 8-bit RGB a word of 4 channel
// values (a pixel and a third), RGBA8 a pair of pixels, where
// both views' rows start on those whole words: widths around a group and a warp of groups
// (128 pixels of 8-bit gray, 64 of 16-bit gray and of RGBA8; 128/3 of RGB, so 128 is three
// warps), the group's pixels partly outside the image at the right edge;
// heights around the strips that lie wholly inside the image (from 65 rows, the second
// strip); every border, ties; a view whose rows do not start on those words takes the
// pixel walk.
TEST(GpuMedian, WalkWiderGroupsWhereRowsStartOnTheirWords) {
  const Columns on_words{4, 4};
  for (const PixelFormat format :
       {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U16, 1}, PixelFormat{ChannelType::U8, 3},
        PixelFormat{ChannelType::U8, 4}})
    for (BorderMode mode : all_border_modes()) {
      for (int width : {1, 2, 3, 4, 5, 6, 7, 63, 64, 65, 66, 127, 128, 129, 130, 131, 255, 257})
        for (int height : {1, 2, 33, 34, 64, 65, 66, 97})
          expect_exact(format, Size{width, height}, 1, mode, MedianVariant::Walk, 0, on_words);
      expect_exact(format, Size{1031, 517}, 1, mode, MedianVariant::Walk, 0, on_words);
      expect_exact(format, Size{131, 67}, 1, mode, MedianVariant::Walk, 3, on_words);
      expect_exact(format, Size{131, 67}, 1, mode, MedianVariant::Walk, 0, Columns{4, 1});
      expect_exact(format, Size{131, 67}, 1, mode, MedianVariant::Walk, 0, Columns{2, 4});
    }
}

TEST(GpuMedian, WindowsFullOfTies) {
  for (MedianVariant variant : {MedianVariant::Naive, MedianVariant::Tiled, MedianVariant::Walk})
    for (int radius = 1; radius <= MedianParams::kMaxRadius; ++radius)
      for (const PixelFormat& format : all_pixel_formats())
        expect_exact(format, Size{45, 37}, radius, BorderMode::Constant, variant, 3);
}

// Many blocks in both directions, on the formats with their own value layouts.
TEST(GpuMedian, ManyTiles) {
  for (int radius = 1; radius <= MedianParams::kMaxRadius; ++radius)
    for (const PixelFormat format : {PixelFormat{ChannelType::U8, 4}, PixelFormat{ChannelType::U16, 4},
                                     PixelFormat{ChannelType::U8, 3}, PixelFormat{ChannelType::F32, 1}})
      expect_exact(format, Size{1031, 517}, radius, BorderMode::Wrap, MedianVariant::Tiled);
  for (const PixelFormat& format : all_pixel_formats())
    expect_exact(format, Size{1031, 517}, 1, BorderMode::Wrap, MedianVariant::Walk);
}

TEST(GpuMedian, RefusesWhatItCannotRun) {
  const PixelFormat rgba{ChannelType::U8, 4};
  DeviceImage image(64, 32, rgba), other(64, 32, rgba);
  const auto refused = [](auto&& call) {
    try {
      call();
    } catch (const Error& e) {
      return e.code() == ErrorCode::InvalidArgument;
    }
    return false;
  };
  EXPECT_TRUE(refused([&] { median_filter(image.view(), other.view(), MedianParams{0}); }));
  EXPECT_TRUE(refused([&] { median_filter(image.view(), other.view(), MedianParams{MedianParams::kMaxRadius + 1}); }));
  EXPECT_TRUE(refused([&] { median_filter(image.view(), image.view(), MedianParams{}); })) << "in place";
  EXPECT_TRUE(refused([&] { median_filter(image.view(), other.view().subview(0, 0, 63, 32), MedianParams{}); }))
      << "sizes differ";
  HostImage host(64, 32, rgba);
  EXPECT_TRUE(refused([&] { median_filter(host.view(), other.view(), MedianParams{}); })) << "host memory";
}

}  // namespace
}  // namespace gpufilter::gpu_median_test
