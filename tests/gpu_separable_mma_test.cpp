// The lab's tensor-core separable kernel (lab/convolution/separable_mma.cuh) on 8-bit
// gray, RGB and RGBA beyond the registry matrix that the lab tests run: every alpha mode,
// bands and steps cut by the image's edges, images narrower than a quad of pixels or than
// the mask, sub-views whose rows start on no word, every border (the constant a different
// value a channel), radii up to the largest compiled, a bias, and the Unsharp rule,
// against the CPU reference within the filters' tolerance.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lab/convolution/separable_mma_launch.hpp"
#include "lab/convolution/separable_mma_tuning.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "gpu_kernel_runs.hpp"

namespace gpufilter::gpu_separable_mma_test {
namespace {

using Tuning = lab::SeparableMmaTuning;

std::vector<PixelFormat> formats() {
  return {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3}, PixelFormat{ChannelType::U8, 4}};
}

using testing::NamedSpec;

std::vector<NamedSpec> specs() { return testing::rank_one_masks(Tuning::kMaxRadius); }

void expect_matches(const NamedSpec& named, PixelFormat format, BorderMode mode, int w, int h, int pad) {
  testing::expect_kernel_matches_reference(
      named, "separable", format, mode, w, h, pad,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border) {
        lab::launch_separable_mma(src, dst, spec, border, ExecContext{nullptr, true});
      });
}

// Widths around one and two bands, narrower than a quad and than the mask; heights
// shorter than a step and a strip and one more.
std::vector<std::pair<int, int>> sizes() {
  const int band = Tuning::kBand;
  const int strip = Tuning::kStepRows * Tuning::kStepsPerStrip;
  return {{1, 1}, {3, 5}, {5, Tuning::kStepRows - 1}, {band - 1, 3}, {band + 1, strip + 1}, {2 * band + 3, 19}};
}

TEST(SeparableMma, RunsEightBitRankOneMasks) {
  for (const PixelFormat& format : formats()) {
    for (const NamedSpec& named : specs())
      EXPECT_TRUE(lab::separable_mma_runs(format, named.spec)) << named.name << " " << format.name();
    // Wider than the compiled radius, or not 8-bit: the strip's.
    EXPECT_FALSE(lab::separable_mma_fits(format, gaussian_spec(GaussianParams{3.0, Tuning::kMaxRadius + 1})));
  }
  EXPECT_FALSE(lab::separable_mma_fits(PixelFormat{ChannelType::U16, 4}, gaussian_spec(GaussianParams{})));
  EXPECT_FALSE(lab::separable_mma_fits(PixelFormat{ChannelType::F32, 1}, gaussian_spec(GaussianParams{})));
}

// Every spec and size in reflect101, whole and as sub-views (rows 1 and 3 pixels in).
TEST(SeparableMma, EverySpecAndSize) {
  for (const NamedSpec& named : specs())
    for (const PixelFormat& format : formats())
      for (const auto& [w, h] : sizes())
        for (int pad : {0, 1, 3}) expect_matches(named, format, BorderMode::Reflect101, w, h, pad);
}

// Every border mode at every size, whole images and one sub-view.
TEST(SeparableMma, EveryBorder) {
  for (const NamedSpec& named : specs()) {
    if (named.name != "gaussian_13x13" && named.name != "sharpen_7x7") continue;
    for (const PixelFormat& format : formats())
      for (BorderMode mode : all_border_modes())
        for (const auto& [w, h] : sizes())
          for (int pad : {0, 1}) expect_matches(named, format, mode, w, h, pad);
  }
}

// A larger image of random pixels: at most the tolerance's share of samples differ.
TEST(SeparableMma, LargeImageWithinTheExactContract) {
  for (const PixelFormat& format : formats())
    for (const NamedSpec& named : specs())
      if (named.name == "gaussian_13x13" || named.name == "gaussian_3x3")
        expect_matches(named, format, BorderMode::Reflect101, 1000, 333, 0);
}

}  // namespace
}  // namespace gpufilter::gpu_separable_mma_test
