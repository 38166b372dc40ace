// The strip kernel with its vertical pass, and with both passes, on the 8-bit integer tensor
// cores (kernels/convolution/separable_strip_imma.cuh) on RGBA8 beyond the registry matrix that
// the conformance and lab tests run: every alpha mode, bands and steps cut by the image's
// edges, images narrower than the mask, sub-views, every border (the constant a different
// value a channel), radii up to the largest compiled (two chunks of 32 window rows from
// radius 9), a bias, and the Unsharp rule, against the CPU reference within the filters'
// tolerance; and the library's strip taking it on RGBA8 from its least radius to 24.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "gpu_kernel_runs.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "convolution/separable_strip_imma_launch.hpp"
#include "convolution/separable_strip_imma_tuning.hpp"
#include "convolution/separable_strip_launch.hpp"

namespace gpufilter::gpu_separable_strip_imma_test {
namespace {

using Tuning = kernels::SeparableStripImmaTuning;
using testing::NamedSpec;

const PixelFormat kRgba8{ChannelType::U8, 4};
const PixelFormat kGray8{ChannelType::U8, 1};

FilterSpec with_alpha(FilterSpec spec, AlphaMode alpha) {
  spec.alpha = alpha;
  return spec;
}

std::vector<NamedSpec> specs() { return testing::rank_one_masks(Tuning::kMaxRadius); }

// Masks whose taps reach into the window's second chunk: sigma 8 at its default radius 24
// (each alpha mode), sigma 4 at radius 12, and a 5 x 33 mask (the vertical factor alone
// past radius 8).
std::vector<NamedSpec> two_chunk_specs() {
  const FilterSpec sigma8 = gaussian_spec(GaussianParams{8.0});
  GaussianParams tall{1.0, 2};
  tall.sigma_y = 5.0;
  tall.radius_y = 16;
  return {{"gaussian_sigma8", sigma8, "blur"},
          {"gaussian_sigma8_separate", with_alpha(sigma8, AlphaMode::Separate), "blur"},
          {"gaussian_sigma8_keep", with_alpha(sigma8, AlphaMode::Keep), "blur"},
          {"gaussian_sigma4", gaussian_spec(GaussianParams{4.0, 12}), "blur"},
          {"gaussian_5x33", gaussian_spec(tall), "blur"}};
}

using kernels::ImmaPasses;

// Whether a spec runs in `passes`: both passes decline an Unsharp threshold.
bool thresholded(const FilterSpec& spec) { return spec.output == FilterOutput::Unsharp && spec.threshold > 0.0; }

// Specs the form does not run (thresholded ones in both passes) are left out.
void expect_matches(const NamedSpec& named, BorderMode mode, int w, int h, int pad, ImmaPasses passes) {
  if (passes == ImmaPasses::Both && thresholded(named.spec)) return;
  testing::expect_kernel_matches_reference(
      named, "separable", kRgba8, mode, w, h, pad,
      [passes](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border) {
        kernels::launch_separable_strip_imma(src, dst, spec, border, ExecContext{nullptr, true}, passes);
      });
}

// Widths around one and two bands (of a window of one chunk: the blur's default radius)
// and narrower than the mask; heights shorter than a step, a step and one more, and two
// steps and one more.
std::vector<std::pair<int, int>> sizes(ImmaPasses passes) {
  const int band = Tuning::band(6, passes == ImmaPasses::Both), step = Tuning::kRows;
  return {{1, 1}, {3, 5}, {5, step - 1}, {band - 1, 3}, {band + 1, step + 1}, {2 * band + 3, 2 * step + 1}};
}

// Each test runs the vertical pass on the tensor cores (the horizontal in float) and both.
class SeparableStripImma : public ::testing::TestWithParam<ImmaPasses> {};

std::string passes_name(const ::testing::TestParamInfo<ImmaPasses>& info) {
  return info.param == ImmaPasses::Both ? "Both" : "Vertical";
}

TEST_P(SeparableStripImma, RunsRgba8RankOneMasks) {
  const ImmaPasses passes = GetParam();
  std::vector<NamedSpec> all = specs();
  for (const NamedSpec& named : two_chunk_specs()) all.push_back(named);
  for (const NamedSpec& named : all)
    EXPECT_EQ(kernels::separable_strip_imma_runs(kRgba8, named.spec, passes),
              passes == ImmaPasses::Vertical || !thresholded(named.spec))
        << named.name;
  // Wider than the compiled radius, not RGBA8, or a factor with a negative tap (the
  // horizontal one only where it runs on the tensor cores).
  EXPECT_FALSE(
      kernels::separable_strip_imma_fits(kRgba8, gaussian_spec(GaussianParams{3.0, Tuning::kMaxRadius + 1}), passes));
  for (const PixelFormat format : {kGray8, PixelFormat{ChannelType::U8, 3}})
    EXPECT_EQ(kernels::separable_strip_imma_fits(format, gaussian_spec(GaussianParams{}), passes),
              passes == ImmaPasses::Vertical)
        << format.name() << ": byte columns, the vertical pass";
  EXPECT_FALSE(
      kernels::separable_strip_imma_fits(PixelFormat{ChannelType::U16, 4}, gaussian_spec(GaussianParams{}), passes));
  FilterSpec negative = gaussian_spec(GaussianParams{});
  negative.separable[0].y.front() = -0.01f;
  negative.separable[0].y[negative.separable[0].y.size() / 2] += 0.01f;
  EXPECT_FALSE(kernels::separable_strip_imma_fits(kRgba8, negative, passes));
  FilterSpec negative_x = gaussian_spec(GaussianParams{});
  negative_x.separable[0].x.front() = -0.01f;
  negative_x.separable[0].x[negative_x.separable[0].x.size() / 2] += 0.01f;
  EXPECT_EQ(kernels::separable_strip_imma_fits(kRgba8, negative_x, passes), passes == ImmaPasses::Vertical);
}

// Every spec and size in reflect101, whole and as sub-views (rows 1 and 3 pixels in).
TEST_P(SeparableStripImma, EverySpecAndSize) {
  for (const NamedSpec& named : specs())
    for (const auto& [w, h] : sizes(GetParam()))
      for (int pad : {0, 1, 3}) expect_matches(named, BorderMode::Reflect101, w, h, pad, GetParam());
}

// Every border mode at every size, whole images and one sub-view.
TEST_P(SeparableStripImma, EveryBorder) {
  for (const NamedSpec& named : specs()) {
    if (named.name != "gaussian_13x13" && named.name != "sharpen_7x7" && named.name != "gaussian_13x13_separate")
      continue;
    for (BorderMode mode : all_border_modes())
      for (const auto& [w, h] : sizes(GetParam()))
        for (int pad : {0, 1}) expect_matches(named, mode, w, h, pad, GetParam());
  }
}

// The masks of two chunks at every border, on sizes around a band and around one, two and
// three steps (33 and 49 rows: the halo of 24 rows reaches two steps either side), whole
// and as a sub-view.
TEST_P(SeparableStripImma, TwoChunksEveryBorderAndSize) {
  const int band = Tuning::band(24, GetParam() == ImmaPasses::Both), step = Tuning::kRows;
  const std::vector<std::pair<int, int>> two_chunk_sizes = {
      {1, 1}, {7, step + 1}, {band + 1, 2 * step + 1}, {2 * band + 3, 3 * step + 1}, {61, 5}};
  for (const NamedSpec& named : two_chunk_specs())
    for (BorderMode mode : all_border_modes())
      for (const auto& [w, h] : two_chunk_sizes)
        for (int pad : {0, 1}) expect_matches(named, mode, w, h, pad, GetParam());
}

// A larger image of random pixels: at most the tolerance's share of samples differ.
TEST_P(SeparableStripImma, LargeImageWithinTheExactContract) {
  for (const NamedSpec& named : specs())
    if (named.name == "gaussian_13x13" || named.name == "gaussian_13x13_separate" || named.name == "gaussian_3x3" ||
        named.name == "sharpen_default")
      expect_matches(named, BorderMode::Reflect101, 1000, 333, 0, GetParam());
  for (const NamedSpec& named : two_chunk_specs())
    if (named.name == "gaussian_sigma8") expect_matches(named, BorderMode::Reflect101, 1000, 333, 0, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Passes, SeparableStripImma, ::testing::Values(ImmaPasses::Vertical, ImmaPasses::Both),
                         passes_name);

// The library's strip (`separable`, and `auto` through it) takes it on RGBA8 from its
// least radius (library_min_radius: premultiplied, separate alpha) to 24: the blur's
// default 13x13 and sigma 8 with each alpha mode, not the premultiplied 7x7 of sharpen's.
TEST(SeparableStripImmaChoice, TheLibrarysStripTakesItFromItsLeastRadius) {
  for (AlphaMode alpha : {AlphaMode::Premultiply, AlphaMode::Separate, AlphaMode::Keep}) {
    SCOPED_TRACE(static_cast<int>(alpha));
    const int least = Tuning::library_min_radius(alpha == AlphaMode::Premultiply);
    const auto takes = [&](const FilterSpec& spec) {
      return kernels::separable_strip_imma_takes(kRgba8, with_alpha(spec, alpha));
    };
    EXPECT_TRUE(takes(gaussian_spec(GaussianParams{})));
    EXPECT_TRUE(takes(gaussian_spec(GaussianParams{1.0, least})));
    EXPECT_FALSE(takes(gaussian_spec(GaussianParams{1.0, least - 1})));
    EXPECT_TRUE(takes(gaussian_spec(GaussianParams{2.7, 8})));
    EXPECT_TRUE(takes(gaussian_spec(GaussianParams{8.0})));
    EXPECT_FALSE(takes(gaussian_spec(GaussianParams{8.4})));  // radius 26
  }
  ASSERT_GT(Tuning::library_min_radius(true), 3) << "sharpen's premultiplied 7x7 stays on the float strip";
  EXPECT_FALSE(kernels::separable_strip_imma_takes(kRgba8, sharpen_spec(SharpenParams{})));
}

// The library's strip at the blur's default (13x13, premultiplied and separate), at sigma 8,
// on a thresholded sharpen at radius 8 and on sharpen's default 7x7 with separate alpha,
// which it runs here: every size, whole and as a sub-view, and every border on one size.
TEST(SeparableStripImmaChoice, TheLibrarysStripAtTheBlursDefault) {
  const auto library_strip = [](const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                const Border& border) {
    kernels::launch_separable_strip(src, dst, spec, border, ExecContext{nullptr, true});
  };
  std::vector<NamedSpec> named_specs = specs();
  for (const NamedSpec& named : two_chunk_specs()) named_specs.push_back(named);
  // Radius 8, where the library runs both passes, but under a threshold: the vertical form.
  SharpenParams thresholded{2.5};
  thresholded.amount = 1.5;
  thresholded.threshold = 0.02;
  named_specs.push_back({"sharpen_17x17_threshold", sharpen_spec(thresholded), "sharpen"});
  const FilterSpec sharpen_separate = with_alpha(sharpen_spec(SharpenParams{}), AlphaMode::Separate);
  ASSERT_TRUE(kernels::separable_strip_imma_takes(kRgba8, sharpen_separate));
  named_specs.push_back({"sharpen_7x7_separate", sharpen_separate, "sharpen"});
  for (const NamedSpec& named : named_specs) {
    if (named.name != "gaussian_13x13" && named.name != "gaussian_13x13_separate" && named.name != "gaussian_sigma8" &&
        named.name != "sharpen_17x17_threshold" && named.name != "sharpen_7x7_separate")
      continue;
    for (const auto& [w, h] : sizes(Tuning::library_passes(Tuning::compiled_radius(named.spec.width() / 2))))
      for (int pad : {0, 1})
        testing::expect_kernel_matches_reference(named, "separable", kRgba8, BorderMode::Reflect101, w, h, pad,
                                                 library_strip);
    for (BorderMode mode : all_border_modes())
      testing::expect_kernel_matches_reference(named, "separable", kRgba8, mode, 301, 47, 1, library_strip);
  }
}

// ---- 8-bit gray and RGB on byte columns: the vertical pass on the tensor cores ----

const PixelFormat kRgb8{ChannelType::U8, 3};
const PixelFormat kByteFormats[] = {kGray8, kRgb8};

void expect_bytes_match(const NamedSpec& named, PixelFormat format, BorderMode mode, int w, int h, int pad) {
  testing::expect_kernel_matches_reference(
      named, "separable", format, mode, w, h, pad,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border) {
        kernels::launch_separable_strip_imma(src, dst, spec, border, ExecContext{nullptr, true}, ImmaPasses::Vertical);
      });
}

// Widths around one and two bands of the blur's radius, narrower than a word and than the
// mask, and not whole words; heights around one and two steps.
std::vector<std::pair<int, int>> byte_sizes(PixelFormat format, int radius) {
  const int band = Tuning::byte_band(format.channels, radius), step = Tuning::kRows;
  return {{1, 1},
          {3, 5},
          {4, 1},
          {6, step - 1},
          {13, step + 1},
          {band - 1, 3},
          {band + 1, step + 1},
          {2 * band + 3, 2 * step + 1}};
}

// Pads of 1 and 3 pixels start the rows off whole words (read byte by byte) and all pads
// but 0 off 8 bytes (written byte by byte); on gray 4 starts them on words.
const int kBytePads[] = {0, 1, 3, 4};

TEST(SeparableStripImmaBytes, RunsGrayAndRgbRankOneMasksInTheVerticalPass) {
  std::vector<NamedSpec> all = specs();
  for (const NamedSpec& named : two_chunk_specs()) all.push_back(named);
  for (const PixelFormat& format : kByteFormats) {
    for (const NamedSpec& named : all) {
      EXPECT_TRUE(kernels::separable_strip_imma_runs(format, named.spec, ImmaPasses::Vertical)) << named.name;
      EXPECT_FALSE(kernels::separable_strip_imma_runs(format, named.spec, ImmaPasses::Both)) << named.name;
    }
    EXPECT_FALSE(kernels::separable_strip_imma_fits(format, gaussian_spec(GaussianParams{3.0, Tuning::kMaxRadius + 1}),
                                                    ImmaPasses::Vertical));
  }
}

TEST(SeparableStripImmaBytes, EverySpecAndSize) {
  for (const PixelFormat& format : kByteFormats)
    for (const NamedSpec& named : specs())
      for (const auto& [w, h] : byte_sizes(format, 6))
        for (int pad : kBytePads) expect_bytes_match(named, format, BorderMode::Reflect101, w, h, pad);
}

TEST(SeparableStripImmaBytes, EveryBorder) {
  for (const PixelFormat& format : kByteFormats)
    for (const NamedSpec& named : specs()) {
      if (named.name != "gaussian_13x13" && named.name != "sharpen_7x7" && named.name != "gaussian_3x3") continue;
      for (BorderMode mode : all_border_modes())
        for (const auto& [w, h] : byte_sizes(format, 6))
          for (int pad : {0, 1}) expect_bytes_match(named, format, mode, w, h, pad);
    }
}

TEST(SeparableStripImmaBytes, TwoChunksEveryBorderAndSize) {
  const int step = Tuning::kRows;
  for (const PixelFormat& format : kByteFormats) {
    const int band = Tuning::byte_band(format.channels, 24);
    const std::vector<std::pair<int, int>> two_chunk_sizes = {
        {1, 1}, {7, step + 1}, {band + 1, 2 * step + 1}, {2 * band + 3, 3 * step + 1}, {61, 5}};
    for (const NamedSpec& named : two_chunk_specs()) {
      if (named.spec.alpha != AlphaMode::Premultiply) continue;  // no alpha: one of the three
      for (BorderMode mode : all_border_modes())
        for (const auto& [w, h] : two_chunk_sizes)
          for (int pad : {0, 1}) expect_bytes_match(named, format, mode, w, h, pad);
    }
  }
}

TEST(SeparableStripImmaBytes, LargeImageWithinTheExactContract) {
  for (const PixelFormat& format : kByteFormats) {
    for (const NamedSpec& named : specs())
      if (named.name == "gaussian_13x13" || named.name == "gaussian_3x3" || named.name == "sharpen_default")
        expect_bytes_match(named, format, BorderMode::Reflect101, 1000, 333, 0);
    for (const NamedSpec& named : two_chunk_specs())
      if (named.name == "gaussian_sigma8") expect_bytes_match(named, format, BorderMode::Reflect101, 1000, 333, 0);
  }
}

// The library's strip takes it on gray and RGB from
// SeparableStripImmaTuning::byte_library_min_radius (gray: the blur's default 13x13; both:
// sigma 8), and matches the reference there.
TEST(SeparableStripImmaBytes, TheLibrarysStripTakesItFromItsRadius) {
  const auto library_strip = [](const ImageView& src, const ImageView& dst, const FilterSpec& spec,
                                const Border& border) {
    kernels::launch_separable_strip(src, dst, spec, border, ExecContext{nullptr, true});
  };
  for (const PixelFormat& format : kByteFormats) {
    const int least = Tuning::byte_library_min_radius(format.channels);
    EXPECT_EQ(kernels::separable_strip_imma_takes(format, gaussian_spec(GaussianParams{})), least <= 6);
    EXPECT_EQ(kernels::separable_strip_imma_takes(format, gaussian_spec(GaussianParams{1.0, 3})), least <= 3);
    EXPECT_TRUE(kernels::separable_strip_imma_takes(format, gaussian_spec(GaussianParams{8.0})));
    std::vector<NamedSpec> named_specs = specs();
    for (const NamedSpec& named : two_chunk_specs()) named_specs.push_back(named);
    for (const NamedSpec& named : named_specs) {
      if (named.name != "gaussian_13x13" && named.name != "gaussian_sigma8") continue;
      for (const auto& [w, h] : byte_sizes(format, named.spec.width() / 2))
        for (int pad : {0, 1})
          testing::expect_kernel_matches_reference(named, "separable", format, BorderMode::Reflect101, w, h, pad,
                                                   library_strip);
    }
  }
}

}  // namespace
}  // namespace gpufilter::gpu_separable_strip_imma_test
