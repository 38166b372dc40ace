// The separable strip on element columns (separable_strip_elements.cuh), which
// `separable` runs RGB of every type and 16- and 32-bit gray on (and the lab 8-bit gray),
// beyond the registry matrix: bands whose edges fall inside a pixel, images narrower
// than a quad or than the mask, sub-views whose rows do not start on a quad (read element
// by element), every border (the constant a different value a channel), radii between
// the compiled ones, and the Unsharp rule, against the CPU reference.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "convolution/separable_strip_launch.hpp"
#include "convolution/separable_strip_tuning.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "gpu_kernel_runs.hpp"

namespace gpufilter::gpu_separable_strip_elements_test {
namespace {

using Tuning = kernels::SeparableStripTuning;

// The formats element columns run: gray and RGB of every type (8-bit gray in the lab).
std::vector<PixelFormat> element_formats() {
  std::vector<PixelFormat> formats;
  for (ChannelType type : {ChannelType::U8, ChannelType::U16, ChannelType::F32})
    for (int channels : {1, 3}) formats.push_back(PixelFormat{type, channels});
  return formats;
}

using testing::NamedSpec;

std::vector<NamedSpec> specs() {
  std::vector<NamedSpec> list;
  list.push_back({"gaussian_13x13", gaussian_spec(GaussianParams{2.0, 0}), "blur"});
  list.push_back({"gaussian_3x3", gaussian_spec(GaussianParams{0.6, 1}), "blur"});
  GaussianParams oblong{1.0, 3};
  oblong.sigma_y = 2.3;  // 7 wide, 15 tall: the kernel of radius 8, its outer x taps zero
  oblong.radius_y = 7;
  list.push_back({"gaussian_7x15", gaussian_spec(oblong), "blur"});
  list.push_back({"gaussian_radius_13", gaussian_spec(GaussianParams{4.3, 13}), "blur"});
  list.push_back({"box_5x5", box_spec(BoxParams{5, 5, AlphaMode::Separate}), "box"});
  SharpenParams unsharp;
  unsharp.amount = 1.5;
  unsharp.threshold = 0.02;
  list.push_back({"sharpen_7x7", sharpen_spec(unsharp), "sharpen"});
  return list;
}

// Element columns against the reference, whole or as a sub-view `pad` pixels in (rows then
// start on no quad for pad * C % 4 != 0).
void expect_matches(const NamedSpec& named, PixelFormat format, BorderMode mode, int w, int h, int pad) {
  testing::expect_kernel_matches_reference(
      named, "separable", format, mode, w, h, pad,
      [](const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border) {
        kernels::launch_separable_strip_by_elements(src, dst, spec, border, ExecContext{nullptr, true});
      });
}

// Widths around one and two bands of the format at the 13x13 kernel's radius, narrower
// than a quad and than the mask; heights shorter than a step and a strip and one more.
std::vector<std::pair<int, int>> sizes(PixelFormat format) {
  const int band = Tuning::element_band_width(format.channels, format.channel_bytes(), 6);
  const int strip = Tuning::kElementStrips.step_rows * Tuning::kElementStrips.max_steps;
  return {{1, 1}, {3, 5}, {5, Tuning::kRows - 1}, {band - 1, 3}, {band + 1, strip + 1}, {2 * band + 3, 9}};
}

TEST(SeparableStripElements, RunRgbAndWideGray) {
  const FilterSpec blur = gaussian_spec(GaussianParams{});
  const FilterSpec sharpen = sharpen_spec(SharpenParams{});
  for (const PixelFormat& format : element_formats()) {
    const bool library = format.channels == 3 || format.channel_bytes() > 1;
    EXPECT_EQ(kernels::strip_runs_on_elements(format, blur), library) << format.name();
    EXPECT_EQ(kernels::strip_runs_on_elements(format, sharpen), library && format.type != ChannelType::F32)
        << format.name() << ": sharpen on float reads its input pixels a run a thread";
    for (const NamedSpec& named : specs())
      EXPECT_TRUE(kernels::separable_strip_elements_fit(format, named.spec)) << named.name << " " << format.name();
  }
  for (ChannelType type : {ChannelType::U8, ChannelType::U16, ChannelType::F32})
    EXPECT_FALSE(kernels::strip_runs_on_elements(PixelFormat{type, 4}, blur)) << "RGBA: pixel columns";
  // Sharpen on float RGB keeps the tiled kernel, on float gray takes pixel columns.
  EXPECT_FALSE(kernels::separable_strip_fits(PixelFormat{ChannelType::F32, 3}, sharpen));
  EXPECT_TRUE(kernels::separable_strip_fits(PixelFormat{ChannelType::F32, 1}, sharpen));
  EXPECT_TRUE(kernels::separable_strip_fits(PixelFormat{ChannelType::F32, 3}, blur));
}

// Every spec and size in reflect101, whole and as sub-views (rows 1 and 3 pixels in).
TEST(SeparableStripElements, EverySpecAndSize) {
  for (const NamedSpec& named : specs())
    for (const PixelFormat& format : element_formats())
      for (const auto& [w, h] : sizes(format))
        for (int pad : {0, 1, 3}) expect_matches(named, format, BorderMode::Reflect101, w, h, pad);
}

// Every border mode at every size, whole images and one sub-view.
TEST(SeparableStripElements, EveryBorder) {
  for (const NamedSpec& named : specs()) {
    if (named.name != "gaussian_13x13" && named.name != "sharpen_7x7") continue;
    for (const PixelFormat& format : element_formats())
      for (BorderMode mode : all_border_modes())
        for (const auto& [w, h] : sizes(format))
          for (int pad : {0, 1}) expect_matches(named, format, mode, w, h, pad);
  }
}

}  // namespace
}  // namespace gpufilter::gpu_separable_strip_elements_test
