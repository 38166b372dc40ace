// Which kernel Auto takes for the small masks the column walk runs (`tiled`), as
// Filter2dWalkTuning's measured choices say: general 2-D masks up to 5x5 (but 8-bit masks
// up to 3x3 of integer weights: integer_3x3); one
// rank-1 mask up to 5x5 on 16-bit, float and three-channel images, where the walk beat the
// separable strip; 8-bit gray and RGBA keep separable_packed and the strip. Where
// `separable` runs the strip, and where the median's Auto takes its walk.
#include <gtest/gtest.h>

#include "gpufilter/gpufilter.hpp"
#include "kernels/convolution/filter2d_launch.hpp"
#include "kernels/convolution/separable_strip_tuning.hpp"
#include "kernels/rank/median_launch.hpp"

namespace gpufilter::filter_variant_choice_test {
namespace {

const PixelFormat kGray8{ChannelType::U8, 1};
const PixelFormat kRgb8{ChannelType::U8, 3};
const PixelFormat kRgba8{ChannelType::U8, 4};

TEST(AutoVariant, GeneralSmallMasksTakeTheWalk) {
  ConvolveParams cross;
  cross.mask = parse_mask("0 -1 0; -1 5 -1; 0 -1 0");
  ConvolveParams fractional;
  fractional.mask = parse_mask("0 -1 0; -1 5.5 -1; 0 -1 0");
  for (const PixelFormat& format : all_pixel_formats()) {
    // 8 bits with integer weights: integer_3x3.
    const FilterVariant integer_masks =
        format.type == ChannelType::U8 ? FilterVariant::Integer3x3 : FilterVariant::Tiled;
    EXPECT_EQ(applied_variant(convolve_spec(cross), format, FilterVariant::Auto), integer_masks) << format.name();
    EXPECT_EQ(applied_variant(emboss_spec(EmbossParams{}), format, FilterVariant::Auto), integer_masks)
        << format.name();
    EXPECT_EQ(applied_variant(convolve_spec(fractional), format, FilterVariant::Auto), FilterVariant::Tiled)
        << format.name();
    EXPECT_EQ(applied_variant(emboss_spec(EmbossParams{"nw", 1.5}), format, FilterVariant::Auto),
              FilterVariant::Tiled)
        << format.name();
  }
  EXPECT_TRUE(kernels::filter2d_walk_fits(convolve_spec(cross)));
  ConvolveParams wide;
  wide.mask = parse_mask("1 1 1 1 1 1 1");
  EXPECT_FALSE(kernels::filter2d_walk_fits(convolve_spec(wide))) << "7 wide: the tile";
}

TEST(AutoVariant, SmallRank1MasksTakeTheWalkWhereItMeasuredFaster) {
  const BoxParams box3{3, 3, AlphaMode::Premultiply};
  for (const PixelFormat& format : all_pixel_formats()) {
    const FilterVariant box = applied_variant(box_spec(box3), format, FilterVariant::Auto);
    if (format == kGray8 || format == kRgb8 || format == kRgba8)
      EXPECT_EQ(box, FilterVariant::SeparablePacked) << format.name();
    else
      EXPECT_EQ(box, FilterVariant::Tiled) << format.name();
  }
  SharpenParams sharpen;
  sharpen.radius = 2;  // 5x5, rank 1 with the Unsharp output
  EXPECT_EQ(applied_variant(sharpen_spec(sharpen), kRgb8, FilterVariant::Auto), FilterVariant::Tiled);
  EXPECT_EQ(applied_variant(sharpen_spec(sharpen), kRgba8, FilterVariant::Auto), FilterVariant::Separable)
      << "8-bit RGBA: the strip";
  EXPECT_EQ(applied_variant(sharpen_spec(sharpen), kGray8, FilterVariant::Auto), FilterVariant::Separable)
      << "8-bit gray: the strip";
  EXPECT_EQ(applied_variant(sharpen_spec(sharpen), PixelFormat{ChannelType::F32, 4}, FilterVariant::Auto),
            FilterVariant::Tiled);
  // Beyond 5x5 rank-1 masks stay separable on every format.
  EXPECT_EQ(applied_variant(gaussian_spec(GaussianParams{}), PixelFormat{ChannelType::U16, 1}, FilterVariant::Auto),
            FilterVariant::Separable);
}

// Pixel columns (RGBA, 8-bit gray, sharpen on float gray; in the lab all gray): float
// gray from kFloatGrayMinRadius on, the rest at every radius; RGBA of 16 and 32 bits with
// staged stores.
TEST(SeparableStripChoice, RadiiPixelColumnsRun) {
  using Tuning = kernels::SeparableStripTuning;
  for (int radius = 1; radius <= Tuning::kMaxRadius; ++radius) {
    EXPECT_TRUE(Tuning::runs(1, 4, radius)) << "u8x4, radius " << radius;
    EXPECT_TRUE(Tuning::runs(1, 1, radius)) << "u8x1, radius " << radius;
    EXPECT_TRUE(Tuning::runs(2, 1, radius)) << "u16x1, radius " << radius;
    EXPECT_EQ(Tuning::runs(4, 1, radius), radius >= 3) << "f32x1, radius " << radius;
    EXPECT_TRUE(Tuning::runs(2, 4, radius)) << "u16x4, radius " << radius;
    EXPECT_TRUE(Tuning::runs(4, 4, radius)) << "f32x4, radius " << radius;
  }
  EXPECT_FALSE(Tuning::stages_stores(1, 4)) << "u8x4 stores its runs";
  EXPECT_TRUE(Tuning::stages_stores(2, 4)) << "u16x4";
  EXPECT_TRUE(Tuning::stages_stores(4, 4)) << "f32x4";
  EXPECT_FALSE(Tuning::stages_stores(4, 1)) << "gray";
}

// Element columns: RGB and 16- and 32-bit gray, but not the Unsharp output on float.
TEST(SeparableStripChoice, FormatsAndOutputsElementColumnsRun) {
  using Tuning = kernels::SeparableStripTuning;
  for (bool unsharp : {false, true}) {
    EXPECT_TRUE(Tuning::elements_run(1, 3, unsharp)) << "u8x3";
    EXPECT_TRUE(Tuning::elements_run(2, 3, unsharp)) << "u16x3";
    EXPECT_TRUE(Tuning::elements_run(2, 1, unsharp)) << "u16x1";
    EXPECT_EQ(Tuning::elements_run(4, 3, unsharp), !unsharp) << "f32x3";
    EXPECT_EQ(Tuning::elements_run(4, 1, unsharp), !unsharp) << "f32x1";
    EXPECT_FALSE(Tuning::elements_run(1, 1, unsharp)) << "u8x1: pixel columns";
    for (std::size_t bytes : {1, 2, 4}) EXPECT_FALSE(Tuning::elements_run(bytes, 4, unsharp)) << "RGBA";
  }
}

// The median's walk on 16- and 32-bit channels at any alignment; on 8-bit channels only
// where both views' rows start on the words its wider groups load (4 bytes for gray and
// RGB, 8 for RGBA).
TEST(MedianAuto, TakesTheWalkOnWideChannelsAndOnAlignedEightBit) {
  alignas(16) static unsigned char memory[64];
  for (const PixelFormat& format : all_pixel_formats()) {
    const std::size_t pixel = format.pixel_bytes();
    const ImageView aligned{memory, 3, 2, 16 * pixel, format};
    for (std::size_t shift : {std::size_t{0}, std::size_t{1}}) {
      // `shift` pixels into a row: 8-bit rows leave the words their groups load.
      const ImageView src{memory + shift * pixel, 3, 2, 16 * pixel, format};
      const bool wide_channels = format.channel_bytes() >= 2;
      const bool expected = wide_channels || shift == 0;  // 8-bit: words of gray and RGB, pairs of RGBA
      EXPECT_EQ(kernels::median_walk_is_auto(src, aligned), expected) << format.name() << " shift " << shift;
      EXPECT_EQ(kernels::median_walk_is_auto(aligned, src), expected) << format.name() << " dst shift " << shift;
    }
    const ImageView odd_pitch{memory, 3, 2, 16 * pixel + format.channel_bytes(), format};
    if (format.channel_bytes() == 1) {
      EXPECT_FALSE(kernels::median_walk_is_auto(odd_pitch, aligned)) << format.name() << ": rows off their words";
    }
  }
}

}  // namespace
}  // namespace gpufilter::filter_variant_choice_test
