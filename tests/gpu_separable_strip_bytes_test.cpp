// The separable strip on byte columns (separable_strip_bytes.cuh), which `separable`
// runs 8-bit gray and RGB on, beyond the registry matrix: bands whose edges fall inside
// a pixel, images narrower than a word or than the mask, sub-views whose rows do not
// start on a word (read byte by byte), every border (the constant a different value a
// channel), radii between the compiled ones, and the Unsharp rule, against the CPU
// reference.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "convolution/separable_strip_launch.hpp"
#include "convolution/separable_strip_tuning.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "gpu_kernel_runs.hpp"

namespace gpufilter::gpu_separable_strip_bytes_test {
namespace {

using Tuning = kernels::SeparableStripTuning;

const PixelFormat kGray{ChannelType::U8, 1};
const PixelFormat kRgb{ChannelType::U8, 3};

struct NamedSpec {
  std::string name;
  FilterSpec spec;
  const char* op;  // whose tolerance the spec is judged by
};

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

// `separable` on a whole image or on a sub-view `pad` pixels in from the buffer's corner
// (rows then start on no word for pad * C % 4 != 0), against the reference.
testing::Difference run_vs_reference(int w, int h, PixelFormat format, const FilterSpec& spec, const Border& border,
                                     int pad) {
  HostImage host_src(w, h, format), expected(w, h, format), actual(w, h, format);
  testing::fill_random(host_src.view(), static_cast<std::uint64_t>(w * 131 + h * 17 + format.channels));
  reference::apply_filter(host_src.view(), expected.view(), spec, border);
  testing::poison_against(actual.view(), expected.view());
  const auto launch = [&](const ImageView& src, const ImageView& dst) {
    kernels::launch_separable_strip(src, dst, spec, border, ExecContext{nullptr, true});
  };
  testing::run_on_padded_device_views(host_src.view(), actual.view(), pad, launch);
  return testing::compare(actual.view(), expected.view());
}

void expect_matches(const NamedSpec& named, PixelFormat format, BorderMode mode, int w, int h, int pad) {
  const Tolerance tolerance = find_operation(named.op)->tolerance_for(format, "separable");
  const Border border = testing::border_with_constant(mode, format);
  const testing::Difference diff = run_vs_reference(w, h, format, named.spec, border, pad);
  EXPECT_TRUE(diff.within(tolerance)) << named.name << " " << format.name() << " " << to_string(mode) << " " << w
                                      << "x" << h << " pad " << pad << ": " << diff.describe();
}

// Widths around one and two bands of the format at the 13x13 kernel's radius, narrower
// than a word and than the mask; heights shorter than a step and a strip and one more.
std::vector<std::pair<int, int>> sizes(PixelFormat format) {
  const int band = Tuning::byte_band_width(format.channels, 6);
  const int strip = Tuning::kRows * Tuning::kStepsPerStrip;
  return {{1, 1}, {3, 5}, {5, Tuning::kRows - 1}, {band - 1, 3}, {band + 1, strip + 1}, {2 * band + 3, 9}};
}

TEST(SeparableStripBytes, RunsGrayAndRgb) {
  for (const PixelFormat& format : {kGray, kRgb}) {
    EXPECT_TRUE(kernels::strip_runs_on_bytes(format)) << format.name();
    for (const NamedSpec& named : specs())
      EXPECT_TRUE(kernels::separable_strip_fits(format, named.spec)) << named.name << " " << format.name();
  }
  EXPECT_FALSE(kernels::strip_runs_on_bytes(PixelFormat{ChannelType::U8, 4}));
  EXPECT_FALSE(kernels::strip_runs_on_bytes(PixelFormat{ChannelType::U16, 3}));
}

// Every spec and size in reflect101, whole and as sub-views (rows 1 and 3 bytes off a word).
TEST(SeparableStripBytes, EverySpecAndSize) {
  for (const NamedSpec& named : specs())
    for (const PixelFormat& format : {kGray, kRgb})
      for (const auto& [w, h] : sizes(format))
        for (int pad : {0, 1, 3}) expect_matches(named, format, BorderMode::Reflect101, w, h, pad);
}

// Every border mode at every size, whole images and one sub-view.
TEST(SeparableStripBytes, EveryBorder) {
  for (const NamedSpec& named : specs()) {
    if (named.name != "gaussian_13x13" && named.name != "sharpen_7x7") continue;
    for (const PixelFormat& format : {kGray, kRgb})
      for (BorderMode mode : all_border_modes())
        for (const auto& [w, h] : sizes(format))
          for (int pad : {0, 1}) expect_matches(named, format, mode, w, h, pad);
  }
}

}  // namespace
}  // namespace gpufilter::gpu_separable_strip_bytes_test
