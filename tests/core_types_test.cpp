// Formats, views, borders and the library's argument checks: all without a GPU.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "common/op_checks.hpp"

namespace gpufilter::core_types_test {
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

// Views of one buffer: which pairs may be a filter's source and destination.
TEST(GpuOps, OverlapIsJudgedRowByRow) {
  std::vector<unsigned char> memory(100 * 64);
  const ImageView image{memory.data(), 64, 100, 64, PixelFormat{}};
  const auto overlaps = [](const ImageView& a, const ImageView& b) {
    try {
      ops::check_no_overlap("test", a, b);
      return false;
    } catch (const Error&) {
      return true;
    }
  };
  // The left and right halves interleave in memory but share no byte.
  EXPECT_FALSE(overlaps(image.subview(0, 0, 32, 100), image.subview(32, 0, 32, 100)));
  EXPECT_FALSE(overlaps(image.subview(0, 0, 10, 50), image.subview(10, 0, 54, 100)));
  EXPECT_FALSE(overlaps(image.subview(0, 0, 64, 50), image.subview(0, 50, 64, 50)));
  EXPECT_TRUE(overlaps(image.subview(0, 0, 33, 100), image.subview(32, 0, 32, 100)));
  EXPECT_TRUE(overlaps(image.subview(0, 0, 64, 51), image.subview(0, 50, 64, 50)));
  EXPECT_TRUE(overlaps(image, image.subview(63, 99, 1, 1)));
  // A view straddling a row boundary meets the right half of the next row.
  EXPECT_TRUE(overlaps(image.subview(40, 0, 24, 3), ImageView{memory.data() + 64 + 30, 20, 1, 64, PixelFormat{}}));
  // Different pitches over one buffer: a view of every other row beside the rows between.
  const ImageView even_rows{memory.data(), 64, 50, 128, PixelFormat{}};
  const ImageView odd_rows{memory.data() + 64, 64, 50, 128, PixelFormat{}};
  const ImageView odd_rows_wide_pitch{memory.data() + 64, 32, 25, 256, PixelFormat{}};
  EXPECT_FALSE(overlaps(even_rows, odd_rows));
  EXPECT_FALSE(overlaps(even_rows, odd_rows_wide_pitch));
  EXPECT_TRUE(overlaps(even_rows, ImageView{memory.data() + 64 + 63, 2, 10, 256, PixelFormat{}}));
}

// A result off by one level in many samples is within one level, but not a rounding tie.
TEST(Tolerances, BoundTheShareOfDifferingSamples) {
  HostImage expected(100, 10, PixelFormat{}), actual(100, 10, PixelFormat{});
  testing::fill_random(expected.view(), 5u);
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 100; ++x) {
      const unsigned char e = expected.view().row<unsigned char>(y)[x];
      actual.view().row<unsigned char>(y)[x] = (x % 2 == 0 && e > 0) ? static_cast<unsigned char>(e - 1) : e;
    }
  const testing::Difference truncated = testing::compare(actual.view(), expected.view());
  EXPECT_EQ(truncated.max_abs, 1.0);
  EXPECT_EQ(truncated.samples, 1000u);
  EXPECT_GT(truncated.differing, 400u);
  EXPECT_TRUE(truncated.within(1.0));
  EXPECT_FALSE(truncated.within(Tolerance{1.0, 0.01}));
  for (int x = 0; x < 100; ++x) actual.view().row<unsigned char>(0)[x] = expected.view().row<unsigned char>(0)[x];
  for (int y = 1; y < 10; ++y)
    for (int x = 0; x < 100; ++x) actual.view().row<unsigned char>(y)[x] = expected.view().row<unsigned char>(y)[x];
  actual.view().row<unsigned char>(3)[7] ^= 1;
  EXPECT_TRUE(testing::compare(actual.view(), expected.view()).within(Tolerance{1.0, 0.01}));
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

// A mask weight that is infinite or NaN, anywhere in a large mask, is refused by name;
// finite weights of any size pass.
TEST(FilterSpecs, ValidationRefusesWeightsThatAreNotFinite) {
  FilterSpec spec = gaussian_spec(GaussianParams{30.0});
  EXPECT_NO_THROW(validate(spec, "blur"));
  const std::size_t count = spec.masks[0].weights.size();
  for (float bad : {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                    std::numeric_limits<float>::quiet_NaN()})
    for (std::size_t at : {std::size_t{0}, count / 2 + 3, count - 1}) {
      FilterSpec broken = spec;
      broken.masks[0].weights[at] = bad;
      try {
        validate(broken, "blur");
        ADD_FAILURE() << "weight " << bad << " at " << at << " passed";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("finite"), std::string::npos) << e.what();
      }
    }
  spec.masks[0].weights[5] = std::numeric_limits<float>::max();  // large but finite
  EXPECT_NO_THROW(validate(spec, "blur"));
}

}  // namespace
}  // namespace gpufilter::core_types_test
