// The integer vertical factor of the strip's tensor-core form and its A fragments
// (kernels/convolution/separable_strip_imma_taps.hpp): the taps sum to exactly 2^16 and
// stay within one unit of the float taps, and the fragments hold the banded matrix
// A[m][k] = q[k - m] in the lanes' layout of mma.m16n8k32. And where the library's strip
// prefers that form (separable_strip_imma_launch.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "convolution/separable_strip_imma_launch.hpp"
#include "convolution/separable_strip_imma_taps.hpp"
#include "gpufilter/filters.hpp"

namespace gpufilter::imma_taps_test {
namespace {

using kernels::imma_fragment_byte;
using kernels::imma_fragments;
using kernels::imma_integer_taps;
using kernels::ImmaFragments;

TEST(ImmaTaps, GaussianTapsSumToOneInSixteenFractionBits) {
  for (const GaussianParams& params : {GaussianParams{}, GaussianParams{0.6, 1}, GaussianParams{2.7, 8},
                                       GaussianParams{2.7, 24}, GaussianParams{8.0}}) {
    const std::vector<float> y = gaussian_spec(params).separable[0].y;
    const std::vector<std::uint32_t> q = imma_integer_taps(y);
    ASSERT_EQ(q.size(), y.size());
    EXPECT_EQ(std::accumulate(q.begin(), q.end(), 0u), 1u << 16);
    for (std::size_t j = 0; j < y.size(); ++j) {
      EXPECT_LT(q[j], 1u << 16);
      EXPECT_NEAR(q[j], y[j] * 65536.0, 1.0) << j;  // within one unit
    }
  }
}

TEST(ImmaTaps, RefusesWhatTheProductsCannotHold) {
  EXPECT_TRUE(imma_integer_taps({0.25f, -0.01f, 0.76f}).empty()) << "a negative tap";
  EXPECT_TRUE(imma_integer_taps({0.5f, 0.6f}).empty()) << "a factor that does not sum to 1";
  EXPECT_TRUE(imma_integer_taps({0.0f, 1.0f, 0.0f}).empty()) << "a tap of 2^16 has no high byte";
  EXPECT_TRUE(imma_integer_taps({}).empty());
  EXPECT_FALSE(imma_integer_taps({0.25f, 0.5f, 0.25f}).empty());
}

// A step's 16 outputs and their halo fill one chunk of 32 window rows up to radius 8, two
// up to radius 24.
TEST(ImmaTaps, ChunksHoldTheStepAndItsHalo) {
  EXPECT_EQ(kernels::imma_chunks(1), 1);
  EXPECT_EQ(kernels::imma_chunks(8), 1);
  EXPECT_EQ(kernels::imma_chunks(9), 2);
  EXPECT_EQ(kernels::imma_chunks(24), 2);
  EXPECT_EQ(kernels::imma_chunks(25), 3);
}

// Each of the 16 x 32C matrix's bytes, read back from the lane of its chunk's fragments that
// holds it, is the high or low byte of q[k - m] inside the band and 0 outside: a 5-tap
// factor centred in a radius-3 window (a 5x7 mask's vertical factor) too, and a 49-tap
// factor across two chunks.
TEST(ImmaTaps, FragmentsHoldTheBandedMatrix) {
  std::vector<std::uint32_t> wide(49);
  for (std::size_t j = 0; j < wide.size(); ++j) wide[j] = 300 + 37 * static_cast<std::uint32_t>(j);  // distinct taps
  const std::vector<std::uint32_t> five = {1000, 9000, 45536, 9000, 1000};
  for (const auto& [q, radius] : {std::pair{five, 2}, std::pair{five, 3}, std::pair{five, 8}, std::pair{five, 12},
                                  std::pair{wide, 24}}) {
    const int offset = radius - static_cast<int>(q.size()) / 2;  // q[0] sits at window offset `offset`
    for (int chunk = 0; chunk < kernels::imma_chunks(radius); ++chunk) {
      ImmaFragments fragments{};
      imma_fragments(q, radius, chunk, fragments);
      for (int m = 0; m < 16; ++m)
        for (int k = 0; k < 32; ++k) {
          const int j = 32 * chunk + k - m - offset;
          const std::uint32_t w = j >= 0 && j < static_cast<int>(q.size()) ? q[static_cast<std::size_t>(j)] : 0;
          EXPECT_EQ(imma_fragment_byte(fragments, 0, m, k), w >> 8) << radius << " " << chunk << " " << m << " " << k;
          EXPECT_EQ(imma_fragment_byte(fragments, 1, m, k), w & 0xFFu)
              << radius << " " << chunk << " " << m << " " << k;
        }
    }
  }
}

// The library's strip prefers it on RGBA8 from library_min_radius (below the blur's
// default 13x13; separate alpha lower) to 24, where it measured faster than the float
// strip, with every alpha mode; not at sharpen's premultiplied 7x7, not on other formats.
TEST(ImmaChoice, Rgba8FromItsLeastRadiusToTwentyFour) {
  const PixelFormat rgba8{ChannelType::U8, 4};
  const FilterSpec blur = gaussian_spec(GaussianParams{});
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgba8, blur));
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgba8, gaussian_spec(GaussianParams{2.7, 8})));
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgba8, gaussian_spec(GaussianParams{3.0, 9})));
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgba8, gaussian_spec(GaussianParams{8.0})));
  EXPECT_FALSE(kernels::separable_strip_imma_preferred(rgba8, gaussian_spec(GaussianParams{8.0, 25})))
      << "wider than the two chunks of 32 input rows a step holds";
  const int rgba_least = kernels::SeparableStripImmaTuning::library_min_radius(true);
  EXPECT_LE(rgba_least, 6);
  EXPECT_GT(rgba_least, 3);
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgba8, gaussian_spec(GaussianParams{1.0, rgba_least})));
  EXPECT_FALSE(kernels::separable_strip_imma_preferred(rgba8, gaussian_spec(GaussianParams{1.0, rgba_least - 1})));
  EXPECT_FALSE(kernels::separable_strip_imma_preferred(rgba8, sharpen_spec(SharpenParams{})));
  // Separate alpha (and kept alpha, the same kernel) takes half the colour products: from
  // a smaller radius, never a larger one.
  const int separate_least = kernels::SeparableStripImmaTuning::library_min_radius(false);
  EXPECT_LE(separate_least, rgba_least);
  for (AlphaMode alpha : {AlphaMode::Separate, AlphaMode::Keep}) {
    FilterSpec other = blur, at_least = gaussian_spec(GaussianParams{1.0, separate_least}),
               below = gaussian_spec(GaussianParams{1.0, separate_least - 1});
    other.alpha = at_least.alpha = below.alpha = alpha;
    EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgba8, other));
    EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgba8, at_least));
    EXPECT_FALSE(kernels::separable_strip_imma_preferred(rgba8, below));
  }
  EXPECT_FALSE(kernels::separable_strip_imma_preferred(PixelFormat{ChannelType::U16, 4}, blur));
  EXPECT_FALSE(kernels::separable_strip_imma_preferred(PixelFormat{ChannelType::U16, 1}, blur));
  // Both passes on the tensor cores where the window's chunks are (nearly) full, as
  // measured; a thresholded Unsharp (which both passes decline: the GPU tests check it)
  // is still taken, in the vertical form.
  using kernels::ImmaPasses;
  using Tuning = kernels::SeparableStripImmaTuning;
  // 8-bit gray and RGB (the vertical pass on byte columns) from their own radius
  // (byte_library_min_radius): gray from 1, RGB from the radius where it beat element
  // columns; sigma 8 on both.
  const PixelFormat gray8{ChannelType::U8, 1}, rgb8{ChannelType::U8, 3};
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(gray8, gaussian_spec(GaussianParams{0.6, 1})));
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(gray8, blur));
  const int rgb_least = Tuning::byte_library_min_radius(3);
  EXPECT_GT(rgb_least, 1);
  EXPECT_FALSE(kernels::separable_strip_imma_preferred(rgb8, gaussian_spec(GaussianParams{0.6, 1})));
  EXPECT_EQ(kernels::separable_strip_imma_preferred(rgb8, blur), rgb_least <= 6);
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgb8, gaussian_spec(GaussianParams{2.7, 8})));
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgb8, gaussian_spec(GaussianParams{8.0})));
  EXPECT_EQ(Tuning::library_passes(6), ImmaPasses::Vertical);
  EXPECT_EQ(Tuning::library_passes(8), ImmaPasses::Both);
  EXPECT_EQ(Tuning::library_passes(12), ImmaPasses::Vertical);
  EXPECT_EQ(Tuning::library_passes(24), ImmaPasses::Both);
  SharpenParams thresholded;
  thresholded.sigma = 3.0;
  thresholded.threshold = 0.02;
  EXPECT_TRUE(kernels::separable_strip_imma_preferred(rgba8, sharpen_spec(thresholded)));
  EXPECT_FALSE(kernels::separable_strip_imma_preferred(PixelFormat{ChannelType::U16, 4}, blur));
}

// The rolled RGBA form (one chunk in float rows, 4 blocks an SM) takes strips of two steps
// where they fill the last wave within 5% of one step's best: at 8K (48 bands of 160
// pixels, 270 steps, 4 blocks on each of 132 SMs) 94.4% against 98.2%. The other forms keep
// the best fill (one step there).
TEST(ImmaStrips, TheRolledFormTakesTwoStepsAtEightK) {
  using Tuning = kernels::SeparableStripImmaTuning;
  ASSERT_TRUE(Tuning::rolled_groups(6, false));
  const long long bands = (7680 + Tuning::band(6, false) - 1) / Tuning::band(6, false);
  const long long resident = static_cast<long long>(Tuning::min_blocks(6, false)) * 132;  // an H200's SMs
  EXPECT_EQ(kernels::step_strip_plan(bands, 4320, resident, Tuning::strips(6, false)).rows, 2 * Tuning::kRows);
  EXPECT_EQ(kernels::step_strip_plan(bands, 4320, resident, Tuning::kStrips).rows, Tuning::kRows);
  EXPECT_EQ(Tuning::strips(12, false).longer_within, Tuning::kStrips.longer_within);
  EXPECT_EQ(Tuning::strips(6, true).longer_within, Tuning::kStrips.longer_within);
  // Where two steps would leave a wave half empty, one step still: 48 bands of 11 steps
  // fill one wave (two steps: 55%).
  EXPECT_EQ(kernels::step_strip_plan(bands, 11 * Tuning::kRows, resident, Tuning::strips(6, false)).rows,
            Tuning::kRows);
}

}  // namespace
}  // namespace gpufilter::imma_taps_test
