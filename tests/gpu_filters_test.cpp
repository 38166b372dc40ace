// The convolution filters beyond the registry matrix: alpha modes, masks that are not
// rank 1 on every variant, masks at and beyond the __constant__ limit, and the choice
// of variant (rank-1 detection, fallbacks on smaller GPUs).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "convolution/filter2d_launch.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "shared_memory_cap.hpp"

namespace gpufilter::gpu_filters_test {
namespace {

// Runs `spec` with `variant` on the GPU and on the CPU reference; returns the difference.
testing::Difference filter_vs_reference(int width, int height, PixelFormat format, const FilterSpec& spec,
                                        const Border& border, FilterVariant variant) {
  HostImage host_src(width, height, format), expected(width, height, format), actual(width, height, format);
  testing::fill_random(host_src.view(), static_cast<std::uint32_t>(width * 13 + height));
  reference::apply_filter(host_src.view(), expected.view(), spec, border);
  testing::poison_against(actual.view(), expected.view());
  DeviceImage src(width, height, format), dst(width, height, format);
  copy_image_async(host_src.view(), src.view(), nullptr);
  copy_image_async(actual.view(), dst.view(), nullptr);
  apply_filter(src.view(), dst.view(), spec, border, variant, ExecContext{nullptr, true});
  copy_image_async(dst.view(), actual.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  return testing::compare(actual.view(), expected.view());
}

Tolerance filter_tolerance(PixelFormat format) { return find_operation("convolve")->tolerance(format); }

const std::vector<FilterVariant> kExplicitVariants = {FilterVariant::Naive, FilterVariant::Constant,
                                                      FilterVariant::Tiled, FilterVariant::TiledL2,
                                                      FilterVariant::Separable};

// Premultiplied alpha with a convex mask (outputs stay in range), and every mode.
TEST(FilterAlpha, EveryModeOnEveryVariant) {
  for (AlphaMode alpha : {AlphaMode::Premultiply, AlphaMode::Separate, AlphaMode::Keep})
    for (const PixelFormat format : {PixelFormat{ChannelType::U8, 4}, PixelFormat{ChannelType::U16, 4},
                                     PixelFormat{ChannelType::F32, 4}})
      for (FilterVariant variant : kExplicitVariants) {
        const testing::Difference diff = filter_vs_reference(45, 38, format, box_spec(BoxParams{5, 3, alpha}),
                                                             Border{BorderMode::Reflect}, variant);
        EXPECT_TRUE(diff.within(filter_tolerance(format)))
            << to_string(alpha) << " " << format.name() << " " << to_string(variant) << ": " << diff.describe();
      }
}

// Details smaller than the threshold are left exactly as they were; larger ones are
// sharpened. The image: a flat grey with +-2 levels of noise, and one step of 100.
TEST(FilterSharpen, ThresholdLeavesSmallDetailsAlone) {
  const PixelFormat format{ChannelType::U8, 1};
  const int width = 64, height = 16;
  HostImage host_src(width, height, format), actual(width, height, format);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      host_src.view().row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>((x < 48 ? 100 : 200) + (x * 7 + y * 3) % 5 - 2);
  const SharpenParams params{1.0, 0, 2.0, 0.05, AlphaMode::Separate};  // threshold: 12.75 levels
  for (FilterVariant variant : kExplicitVariants) {
    DeviceImage src(width, height, format), dst(width, height, format);
    copy_image_async(host_src.view(), src.view(), nullptr);
    sharpen(src.view(), dst.view(), params, Border{BorderMode::Replicate}, variant, ExecContext{nullptr, true});
    copy_image_async(dst.view(), actual.view(), nullptr);
    GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const int in = host_src.view().row<std::uint8_t>(y)[x], out = actual.view().row<std::uint8_t>(y)[x];
        if (x >= 44 && x <= 51) continue;  // near the step
        ASSERT_EQ(out, in) << to_string(variant) << " noise at (" << x << ", " << y << ")";
      }
    EXPECT_LT(actual.view().row<std::uint8_t>(8)[47], host_src.view().row<std::uint8_t>(8)[47] - 20)
        << to_string(variant) << ": the dark side of the step darkens";
    EXPECT_GT(actual.view().row<std::uint8_t>(8)[48], host_src.view().row<std::uint8_t>(8)[48] + 20)
        << to_string(variant) << ": the bright side brightens";
  }
}

// A mask that is not rank 1: the separable variant falls back to a 2-D one.
TEST(FilterMasks, NonSeparableMaskOnEveryVariant) {
  ConvolveParams params{parse_mask("1 0 -2 1 0.5; 0 3 1 -1 0; -0.5 1 2 0 1"), true, 0.05, AlphaMode::Keep};
  const FilterSpec spec = convolve_spec(params);
  ASSERT_FALSE(spec.is_separable());
  EXPECT_EQ(applied_variant(spec, PixelFormat{}, FilterVariant::Separable), FilterVariant::Tiled);
  for (const PixelFormat& format : all_pixel_formats())
    for (BorderMode mode : all_border_modes())
      for (FilterVariant variant : kExplicitVariants) {
        Border border{mode, {20.0, 40.0, 60.0, 200.0}};
        if (format.type == ChannelType::F32) border.value = {0.1, 0.2, 0.3, 0.9};
        const testing::Difference diff = filter_vs_reference(37, 29, format, spec, border, variant);
        EXPECT_TRUE(diff.within(filter_tolerance(format)))
            << format.name() << " " << to_string(mode) << " " << to_string(variant) << ": " << diff.describe();
      }
}

// A normalised, smooth mask of the given odd size that is not rank 1.
Mask large_mask(int size) {
  Mask mask{size, size, {}};
  double sum = 0.0;
  for (int j = 0; j < size; ++j)
    for (int i = 0; i < size; ++i) {
      const float w = static_cast<float>(1.0 + ((i * 7 + j * 3) % 5) + (i == j ? 3.0 : 0.0));
      mask.weights.push_back(w);
      sum += w;
    }
  for (float& w : mask.weights) w = static_cast<float>(w / sum);
  return mask;
}

// 127x127 is the largest mask __constant__ memory holds; one wider runs from global memory.
TEST(FilterMasks, ConstantMemoryLimit) {
  const PixelFormat format{ChannelType::F32, 1};
  const FilterSpec fits = convolve_spec(ConvolveParams{large_mask(127), false, 0.0, AlphaMode::Separate});
  const FilterSpec too_large = convolve_spec(ConvolveParams{large_mask(129), false, 0.0, AlphaMode::Separate});
  EXPECT_TRUE(kernels::filter2d_constant_fits(fits));
  EXPECT_FALSE(kernels::filter2d_constant_fits(too_large));
  EXPECT_EQ(applied_variant(fits, format, FilterVariant::Constant), FilterVariant::Constant);
  EXPECT_EQ(applied_variant(too_large, format, FilterVariant::Constant), FilterVariant::Naive);
  EXPECT_EQ(applied_variant(too_large, format, FilterVariant::Auto), FilterVariant::Naive);
  for (const FilterSpec* spec : {&fits, &too_large})
    for (FilterVariant variant : {FilterVariant::Constant, FilterVariant::Tiled, FilterVariant::TiledL2}) {
      const testing::Difference diff = filter_vs_reference(150, 40, format, *spec, Border{}, variant);
      EXPECT_TRUE(diff.within(filter_tolerance(format)))
          << spec->width() << "x" << spec->height() << " " << to_string(variant) << ": " << diff.describe();
    }
}

TEST(FilterVariants, RankOneMasksRunSeparably) {
  const FilterSpec rank1 = convolve_spec(ConvolveParams{parse_mask("1 2 1; 2 4 2; 1 2 1"), true, 0.0, {}});
  ASSERT_TRUE(rank1.is_separable());
  const PixelFormat f32{ChannelType::F32, 1};
  EXPECT_EQ(applied_variant(rank1, f32, FilterVariant::Auto), FilterVariant::Tiled)
      << "up to 5x5 on float images: the column walk, which measured faster than the separable kernels";
  EXPECT_EQ(applied_variant(gaussian_spec(GaussianParams{1.0, 3}), f32, FilterVariant::Auto), FilterVariant::Separable)
      << "7x7 and wider: separably";
  EXPECT_EQ(applied_variant(rank1, PixelFormat{}, FilterVariant::Auto), FilterVariant::Separable)
      << "a custom mask is not marked convex, so the 8-bit integer kernels leave it to the float one";
  EXPECT_EQ(applied_variant(edge_spec(EdgeParams{}), f32, FilterVariant::Auto), FilterVariant::Tiled)
      << "two masks (the gradient's magnitude) run on the 2-D tile";
  EXPECT_EQ(applied_variant(edge_spec(EdgeParams{}), PixelFormat{}, FilterVariant::Auto), FilterVariant::GradientInt)
      << "8-bit Sobel magnitudes run on the integer gradient kernel";
  EXPECT_EQ(applied_variant(gaussian_spec(GaussianParams{2.0}), PixelFormat{}, FilterVariant::Auto),
            FilterVariant::Separable);
  EXPECT_EQ(applied_variant(gaussian_spec(GaussianParams{4.0}), PixelFormat{}, FilterVariant::Auto),
            FilterVariant::Separable)
      << "by default auto is exact: large Gaussians too run their taps";
  GaussianParams fast{4.0};
  fast.accuracy = Accuracy::Fast;
  EXPECT_EQ(applied_variant(gaussian_spec(fast), PixelFormat{}, FilterVariant::Auto), FilterVariant::Separable)
      << "below a decimation factor of 3 even a fast blur runs its taps: box_stack's corners stray too far";
  fast.sigma = 30.0;
  EXPECT_EQ(applied_variant(gaussian_spec(fast), PixelFormat{}, FilterVariant::Auto), FilterVariant::Decimated)
      << "where an approximation is accepted, from sigma 4.02 large Gaussians run the decimated pyramid";
}

// On an sm_75 (64 KiB per block) a 2-D tile with a wide halo does not fit: the tiled
// variant says so and the op falls back to the cache-halo tile, with the same result.
TEST(FilterVariants, TiledFallsBackOnSmallerGpus) {
  const PixelFormat format{ChannelType::F32, 4};
  const FilterSpec spec = convolve_spec(ConvolveParams{large_mask(41), false, 0.0, AlphaMode::Separate});
  const SharedMemoryCap cap(kSm75SharedMemory);
  EXPECT_FALSE(kernels::filter2d_tiled_fits(format, spec));
  EXPECT_EQ(applied_variant(spec, format, FilterVariant::Tiled), FilterVariant::TiledL2);
  const testing::Difference diff = filter_vs_reference(70, 50, format, spec, Border{}, FilterVariant::Tiled);
  EXPECT_TRUE(diff.within(filter_tolerance(format))) << diff.describe();
}

}  // namespace
}  // namespace gpufilter::gpu_filters_test
