// The vertical-first 8-bit filter's arithmetic (separable_packed), emulated on the CPU
// from the integer mask it runs (kernels/convolution/separable_packed_weights.hpp),
// against the double reference: within the filter ops' u8 tolerance (1 level, at most
// 1% of samples differing; here at most half of that) for Gaussians of sigma 0.3 to 3
// at every radius the kernel takes, and exact for boxes. Also which specs it takes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "fixed_point_emulation.hpp"
#include "kernels/convolution/fixed_strip_plan.hpp"
#include "kernels/convolution/separable_fixed_weights.hpp"
#include "kernels/convolution/separable_packed_tuning.hpp"
#include "kernels/convolution/separable_packed_weights.hpp"

namespace gpufilter::packed_filter_weights_test {
namespace {

using testing::kGray8;

// The emulated kernel on a gray image with the reflect-101 border, against the reference.
testing::Difference emulate_vs_reference(const FilterSpec& spec, int width, int height, std::uint64_t seed) {
  return testing::emulated_vs_reference(spec, width, height, seed, BorderMode::Reflect101,
                                        kernels::separable_packed_output);
}

double share_differing(const testing::Difference& diff) {
  return static_cast<double>(diff.differing) / static_cast<double>(diff.samples);
}

TEST(PackedFilter, GaussiansWithinTheOpsTolerance) {
  for (double sigma : {0.3, 0.5, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 3.0})
    for (int radius = 1; radius <= kernels::SeparablePackedTuning::kMaxRadius; ++radius) {
      GaussianParams params{sigma, radius};
      params.alpha = AlphaMode::Separate;
      const FilterSpec spec = gaussian_spec(params);
      ASSERT_TRUE(kernels::separable_packed_fits(kGray8, spec)) << sigma << " " << radius;
      const testing::Difference diff =
          emulate_vs_reference(spec, 200, 150, static_cast<std::uint64_t>(radius * 1000 + sigma * 10));
      EXPECT_TRUE(diff.within(testing::u8_filter_tolerance())) << "sigma " << sigma << " radius " << radius << ": " << diff.describe();
      EXPECT_LT(share_differing(diff), 0.005) << "sigma " << sigma << " radius " << radius << ": half the allowance";
    }
}

TEST(PackedFilter, AnisotropicGaussians) {
  for (const auto& [sx, rx, sy, ry] : {std::tuple{1.5, 4, 0.7, 2}, std::tuple{0.6, 1, 1.3, 3}, std::tuple{1.0, 2, 1.0, 0}}) {
    GaussianParams params{sx, rx};
    params.sigma_y = sy;
    params.radius_y = ry;
    const FilterSpec spec = gaussian_spec(params);
    ASSERT_TRUE(kernels::separable_packed_fits(kGray8, spec));
    const testing::Difference diff = emulate_vs_reference(spec, 97, 61, 7);
    EXPECT_TRUE(diff.within(testing::u8_filter_tolerance())) << diff.describe();
    EXPECT_LT(share_differing(diff), 0.005) << diff.describe();
  }
}

TEST(PackedFilter, BoxesAreExact) {
  for (int w : {1, 3, 5, 7, 9})
    for (int h : {1, 3, 5, 9}) {
      const FilterSpec spec = box_spec(BoxParams{w, h, AlphaMode::Separate});
      ASSERT_TRUE(kernels::separable_packed_fits(kGray8, spec));
      const testing::Difference diff = emulate_vs_reference(spec, 83, 47, static_cast<std::uint64_t>(w * 10 + h));
      EXPECT_EQ(diff.max_abs, 0.0) << w << "x" << h << ": " << diff.describe();
    }
}

// No sum leaves 32 bits: all-255 input stays 255 for the largest box and Gaussians.
TEST(PackedFilter, SaturatedInputKeeps255) {
  for (const FilterSpec& spec : {box_spec(BoxParams{9, 9, AlphaMode::Separate}),
                                 gaussian_spec(GaussianParams{0.1, 4, 0.0, 0, AlphaMode::Separate}),
                                 gaussian_spec(GaussianParams{3.0, 4, 0.0, 0, AlphaMode::Separate})}) {
    const kernels::FixedPointMask mask = kernels::fixed_point_mask(spec);
    const std::vector<std::uint8_t> window(81, 255);
    EXPECT_EQ(kernels::separable_packed_output(mask, window.data(), 2 * mask.radius + 1), 255);
  }
}

// The premultiplied RGBA arithmetic on the interior of a random image (every window
// inside it, so no border is involved), against the reference: Gaussians within the ops'
// u8 tolerance, boxes too (their division by the filtered alpha is a float's).
TEST(PackedFilter, PremultipliedRgbaWithinTheOpsTolerance) {
  const PixelFormat rgba{ChannelType::U8, 4};
  std::vector<FilterSpec> specs;
  for (double sigma : {0.5, 1.0, 2.0})
    for (int radius = 1; radius <= kernels::SeparablePackedTuning::kMaxRadius; ++radius)
      specs.push_back(gaussian_spec(GaussianParams{sigma, radius}));
  for (int size : {3, 5, 9}) specs.push_back(box_spec(BoxParams{size, size}));
  specs.push_back(box_spec(BoxParams{5, 3}));
  const int width = 45, height = 37;
  HostImage src(width, height, rgba), expected(width, height, rgba);
  testing::fill_random(src.view(), 77u);
  // Some transparent and nearly transparent pixels: the division's edge cases.
  for (int y = 0; y < height; y += 3)
    for (int x = 0; x < width; x += 4) src.view().row<std::uint8_t>(y)[x * 4 + 3] = static_cast<std::uint8_t>(x % 3);
  for (const FilterSpec& spec : specs) {
    ASSERT_EQ(spec.alpha, AlphaMode::Premultiply);
    ASSERT_TRUE(kernels::separable_packed_fits(rgba, spec)) << spec.width() << "x" << spec.height();
    reference::apply_filter(src.view(), expected.view(), spec, Border{});
    const kernels::FixedPointMask mask = kernels::fixed_point_mask(spec);
    const int r = mask.radius, taps = 2 * r + 1;
    std::vector<std::uint8_t> window(static_cast<std::size_t>(taps) * taps * 4);
    int differing = 0, samples = 0;
    double worst = 0.0;
    for (int y = r; y < height - r; ++y)
      for (int x = r; x < width - r; ++x) {
        for (int j = 0; j < taps; ++j)
          std::copy_n(src.view().row<std::uint8_t>(y + j - r) + (x - r) * 4, taps * 4, window.data() + j * taps * 4);
        std::uint8_t out[4];
        kernels::separable_packed_premultiplied_output(mask, window.data(), taps, out);
        for (int c = 0; c < 4; ++c) {
          const double d = std::abs(out[c] - static_cast<double>(expected.view().row<std::uint8_t>(y)[x * 4 + c]));
          worst = std::max(worst, d);
          differing += d > 0 ? 1 : 0;
          ++samples;
        }
      }
    EXPECT_LE(worst, 1.0) << spec.width() << "x" << spec.height();
    EXPECT_LT(static_cast<double>(differing) / samples, 0.005) << spec.width() << "x" << spec.height();
  }
}

TEST(PackedFilter, WhichSpecsItTakes) {
  const auto auto_takes_premultiplied = [](const FilterSpec& spec, PixelFormat format) {
    return applied_variant(spec, format, FilterVariant::Auto) == FilterVariant::SeparablePacked;
  };
  const PixelFormat rgba{ChannelType::U8, 4}, rgb{ChannelType::U8, 3}, u16{ChannelType::U16, 1};
  GaussianParams blur{1.0, 2};
  blur.alpha = AlphaMode::Separate;
  EXPECT_TRUE(kernels::separable_packed_fits(kGray8, gaussian_spec(blur)));
  EXPECT_TRUE(kernels::separable_packed_fits(rgba, gaussian_spec(blur)));
  EXPECT_TRUE(kernels::separable_packed_fits(rgb, gaussian_spec(blur))) << "3-byte pixels, 4 a thread";
  EXPECT_FALSE(kernels::separable_packed_fits(u16, gaussian_spec(blur)));
  EXPECT_TRUE(kernels::separable_packed_fits(kGray8, gaussian_spec(GaussianParams{2.0, 6}))) << "13x13";
  EXPECT_FALSE(kernels::separable_packed_fits(kGray8, gaussian_spec(GaussianParams{2.5, 7}))) << "15x15";
  EXPECT_FALSE(kernels::separable_packed_fits(kGray8, sharpen_spec(SharpenParams{})));
  blur.alpha = AlphaMode::Premultiply;
  EXPECT_TRUE(kernels::separable_packed_fits(rgba, gaussian_spec(blur))) << "premultiplied in the same pass";
  EXPECT_FALSE(auto_takes_premultiplied(gaussian_spec(blur), rgba))
      << "auto leaves premultiplied Gaussians to the float kernels (SeparablePackedTuning::auto_takes_premultiplied)";
  EXPECT_TRUE(auto_takes_premultiplied(box_spec(BoxParams{5, 5, AlphaMode::Premultiply}), rgba));
  blur.alpha = AlphaMode::Keep;
  EXPECT_FALSE(kernels::separable_packed_fits(rgba, gaussian_spec(blur))) << "kept alpha takes the float path";
  // Auto takes it where the tuning's measurements say (auto_max_size); an explicit request
  // falls back where it cannot run.
  const FilterSpec gaussian = gaussian_spec(GaussianParams{1.0, 2});
  using Tuning = kernels::SeparablePackedTuning;
  const auto auto_takes = [](const FilterSpec& spec, PixelFormat format) {
    return applied_variant(spec, format, FilterVariant::Auto) == FilterVariant::SeparablePacked;
  };
  for (int radius = 1; radius <= Tuning::kMaxRadius; ++radius) {
    const int size = 2 * radius + 1;
    const FilterSpec weighted = gaussian_spec(GaussianParams{1.0, radius});
    const FilterSpec box = box_spec(BoxParams{size, size, AlphaMode::Separate});
    for (const PixelFormat& format : {kGray8, rgb, rgba}) {
      FilterSpec weighted_separate = weighted;
      weighted_separate.alpha = AlphaMode::Separate;
      EXPECT_EQ(auto_takes(weighted_separate, format), size <= Tuning::auto_max_size(false))
          << size << "x" << size << " Gaussian, " << format.channels << " channels";
      EXPECT_EQ(auto_takes(box, format), size <= Tuning::auto_max_size(true))
          << size << "x" << size << " box, " << format.channels << " channels";
    }
  }
  EXPECT_TRUE(auto_takes(gaussian_spec(GaussianParams{1.0, 2}), kGray8)) << "5x5 gray Gaussians measured faster";
  EXPECT_FALSE(auto_takes(gaussian_spec(GaussianParams{1.0, 3}), kGray8))
      << "gray Gaussians past 5x5 take the float strip kernel: faster, and exact";
  EXPECT_FALSE(auto_takes(gaussian_spec(GaussianParams{2.0, 6}), rgba))
      << "the blur's default (13x13, premultiplied) runs faster on the float strip kernel";
  EXPECT_FALSE(auto_takes(gaussian_spec(GaussianParams{1.0, 3}), rgba)) << "7x7 RGBA Gaussians too";
  EXPECT_TRUE(auto_takes(box_spec(BoxParams{9, 9, AlphaMode::Separate}), kGray8)) << "9x9 gray boxes measured faster";
  EXPECT_FALSE(auto_takes(gaussian_spec(GaussianParams{1.0, 4}), rgb))
      << "9x9 RGB Gaussians take the float strip's element columns";
  EXPECT_TRUE(auto_takes(gaussian_spec(GaussianParams{0.8, 2}), rgb)) << "5x5 RGB Gaussians measured faster";
  EXPECT_EQ(applied_variant(gaussian, kGray8, FilterVariant::SeparablePacked), FilterVariant::SeparablePacked);
  EXPECT_EQ(applied_variant(gaussian, rgb, FilterVariant::SeparablePacked), FilterVariant::SeparablePacked);
  EXPECT_EQ(applied_variant(gaussian_spec(GaussianParams{2.5, 7}), kGray8, FilterVariant::SeparablePacked),
            FilterVariant::Separable);
  EXPECT_EQ(filter_variant_from_name("separable_packed"), FilterVariant::SeparablePacked);
}

// The fast groups walk 2R+1 rows at a time; at 5x5 the strips of common image heights
// are whole groups, so no interior row takes the tested step.
TEST(PackedFilter, FiveByFiveStripsAreWholeGroups) {
  using Tuning = kernels::SeparablePackedTuning;
  ASSERT_GE(Tuning::kFastGroupsMaxRadius, 2);
  for (int channels : {1, 3, 4})
    for (bool box : {false, true})
      for (int height : {1080, 2160, 4000, 4320}) {
        const kernels::StripBounds bounds = Tuning::strip_rows(channels, 2, box);
        const kernels::StripPlan plan = kernels::fixed_strip_plan(64, height, 1056, bounds.min_rows, bounds.max_rows);
        EXPECT_EQ(plan.rows % 5, 0) << channels << " channels, box " << box << ", height " << height;
        EXPECT_GE(static_cast<long long>(plan.rows) * plan.strips, height);
      }
}

}  // namespace
}  // namespace gpufilter::packed_filter_weights_test
