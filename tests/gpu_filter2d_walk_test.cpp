// The column walk (filter2d_walk.cuh), which `tiled` runs masks up to 5x5 on, beyond the
// registry matrix: every mask shape up to 5x5 (square, tall, wide, a single row or
// column), one mask or two (Magnitude), rank-1 masks, every output rule, alpha mode, format
// and border, images narrower than a warp's columns, shorter than a step or a strip, bands
// and strips that end within the mask, and sub-views, against the CPU reference.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "convolution/filter2d_launch.hpp"
#include "convolution/filter2d_tuning.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "gpu_kernel_runs.hpp"

namespace gpufilter::gpu_filter2d_walk_test {
namespace {

using Tuning = kernels::Filter2dWalkTuning;

using testing::NamedSpec;

FilterSpec mask_spec(const std::string& text, AlphaMode alpha, double bias = 0.0) {
  ConvolveParams params;
  params.mask = parse_mask(text);
  params.bias = bias;
  params.alpha = alpha;
  return convolve_spec(params);
}

std::vector<NamedSpec> walk_specs() {
  std::vector<NamedSpec> specs;
  const std::pair<const char*, const char*> masks[] = {
      {"3x3", "0 -1.0313 0; -0.9871 5.0137 -1.0119; 0 -0.9913 0"},
      {"3x5", "0.1031 0.2017 -0.0987; 0.1993 0.4011 -0.2029; 0.0519 0.1013 -0.0491; 0.0977 0.2039 -0.1003; "
              "-0.1013 -0.1987 0.1021"},
      {"5x3", "0.1021 0 0.1987 0 -0.1013; 0.0493 0.1019 0.2011 0.0989 0.0517; -0.0991 0 0.3013 0 0.1009"},
      {"5x5", "0.0041 0.0163 0.0229 0.0157 0.0039; 0.0161 0.0631 0.0937 0.0629 0.0163; 0.0233 0.0941 -0.2017 "
              "0.0939 0.0227; 0.0159 0.0627 0.0943 0.0633 0.0161; 0.0043 0.0157 0.0231 0.0163 0.0037"},
      {"1x5", "0.1013; 0.1987; 0.4019; 0.2011; 0.0989"},
      {"5x1", "-0.5017 0.2493 1.5031 0.2507 -0.4987"}};
  // Sums of the weights between 0.66 and 1, so few outputs saturate; no weight a round
  // decimal, so sums of 8-bit values seldom fall on a .5 tie that float and double round
  // apart.
  for (const auto& [name, text] : masks)
    for (AlphaMode alpha : {AlphaMode::Premultiply, AlphaMode::Separate, AlphaMode::Keep})
      specs.push_back({std::string(name) + "_" + to_string(alpha), mask_spec(text, alpha, 0.05), "convolve"});
  specs.push_back({"sobel_magnitude", edge_spec(EdgeParams{}), "edge"});
  EdgeParams scharr;
  scharr.op = EdgeOperator::Scharr;
  specs.push_back({"scharr_magnitude", edge_spec(scharr), "edge"});
  specs.push_back({"emboss", emboss_spec(EmbossParams{}), "emboss"});
  SharpenParams unsharp;
  unsharp.radius = 2;
  unsharp.amount = 1.5;
  unsharp.threshold = 0.02;
  specs.push_back({"unsharp_5x5", sharpen_spec(unsharp), "sharpen"});
  // Rank-1 masks: the walk sums a column once and weighs it for each target.
  specs.push_back({"box_3x3_premultiply", box_spec(BoxParams{3, 3, AlphaMode::Premultiply}), "box"});
  specs.push_back({"box_5x3_separate", box_spec(BoxParams{5, 3, AlphaMode::Separate}), "box"});
  GaussianParams gaussian{0.7, 2};
  specs.push_back({"gaussian_5x5_premultiply", gaussian_spec(gaussian), "blur"});
  return specs;
}

const PixelFormat kFormats[] = {{ChannelType::U8, 1},  {ChannelType::U8, 3},  {ChannelType::U8, 4},
                                {ChannelType::U16, 1}, {ChannelType::U16, 3}, {ChannelType::U16, 4},
                                {ChannelType::F32, 1}, {ChannelType::F32, 3}, {ChannelType::F32, 4}};

// 1x1; narrower than the mask; one warp's columns and one more (5x5); shorter than a
// step; a strip and a ragged part of the next; a block's band and one more column (3x3);
// four bands and one more column, two rows; 4 bands by 301 rows, whose grid is under a
// wave, so the plan takes short strips for more blocks (36 or 40 rows on a GPU of about
// 130 SMs: lengths that are not a multiple of 32), the last one ragged.
std::vector<std::pair<int, int>> sizes() {
  constexpr int P = Tuning::kPixelsALane;
  const int warp = Tuning::columns_a_warp(2, P) + 1;
  const int band = Tuning::kWarps * Tuning::columns_a_warp(1, P);
  const int strip = Tuning::kStrips.step_rows * Tuning::kStrips.max_steps;
  return {{1, 1},       {2, 3}, {warp, Tuning::rows_a_step(P) - 1}, {7, strip + 3}, {band + 1, 9},
          {4 * band + 1, 2}, {3 * band + 7, 301}};
}

// The walk on `spec`, whole images or a sub-view (one pixel in from the buffer's
// corner), against the reference; every fifth RGBA pixel nearly transparent.
testing::Difference run_vs_reference(int w, int h, PixelFormat format, const FilterSpec& spec, const Border& border,
                                     bool sub_view) {
  HostImage host_src(w, h, format), expected(w, h, format), actual(w, h, format);
  testing::fill_random(host_src.view(), static_cast<std::uint64_t>(w * 131 + h * 17 + format.channels));
  if (format.channels == 4 && format.type == ChannelType::U8)
    for (int y = 0; y < h; ++y)
      for (int x = y % 5; x < w; x += 5)
        host_src.view().row<std::uint8_t>(y)[x * 4 + 3] = static_cast<std::uint8_t>((x + y) % 3);
  reference::apply_filter(host_src.view(), expected.view(), spec, border);
  testing::poison_against(actual.view(), expected.view());
  const int pad = sub_view ? 1 : 0;
  const auto launch = [&](const ImageView& src, const ImageView& dst) {
    kernels::launch_filter2d_walk(src, dst, spec, border, ExecContext{nullptr, true});
  };
  testing::run_on_padded_device_views(host_src.view(), actual.view(), pad, launch);
  return testing::compare(actual.view(), expected.view(), spec.alpha == AlphaMode::Premultiply);
}

void expect_matches(const NamedSpec& named, PixelFormat format, BorderMode mode, int w, int h, bool sub_view) {
  const Tolerance tolerance = find_operation(named.op)->tolerance_for(format, "tiled");
  const Border border = testing::border_with_constant(mode, format);
  const testing::Difference diff = run_vs_reference(w, h, format, named.spec, border, sub_view);
  EXPECT_TRUE(diff.within(tolerance)) << named.name << " " << format.name() << " " << to_string(mode) << " " << w
                                      << "x" << h << (sub_view ? " sub-view" : "") << ": " << diff.describe();
}

// Every spec and format at every size (and the small ones as sub-views), in reflect101.
TEST(Filter2dWalk, EveryShapeRuleFormatAndSize) {
  for (const NamedSpec& named : walk_specs()) {
    ASSERT_TRUE(kernels::filter2d_walk_fits(named.spec)) << named.name;
    for (const PixelFormat format : kFormats)
      for (const auto& [w, h] : sizes()) {
        expect_matches(named, format, BorderMode::Reflect101, w, h, false);
        if (w * h <= 100) expect_matches(named, format, BorderMode::Reflect101, w, h, true);
      }
  }
}

// Every border mode, on a general mask, two masks and a rank-1 one.
TEST(Filter2dWalk, EveryBorder) {
  for (const NamedSpec& named : walk_specs()) {
    if (named.name != "3x5_premultiply" && named.name != "sobel_magnitude" && named.name != "box_3x3_premultiply")
      continue;
    for (const PixelFormat format : kFormats)
      for (BorderMode mode : all_border_modes())
        for (const auto& [w, h] : sizes()) expect_matches(named, format, mode, w, h, w * h <= 100);
  }
}

// `tiled` takes the walk up to 5x5 and the tile above.
TEST(Filter2dWalk, TiledRunsTheWalkUpTo5x5) {
  EXPECT_TRUE(kernels::filter2d_walk_fits(mask_spec("1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1", AlphaMode::Separate)));
  EXPECT_FALSE(kernels::filter2d_walk_fits(mask_spec("1 1 1 1 1 1 1", AlphaMode::Separate)));
  EXPECT_FALSE(kernels::filter2d_walk_fits(mask_spec("1; 1; 1; 1; 1; 1; 1", AlphaMode::Separate)));
}

}  // namespace
}  // namespace gpufilter::gpu_filter2d_walk_test
