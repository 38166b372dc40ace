// The 8-bit fixed-point filter's arithmetic (the lab's separable_fixed and the library's
// separable_packed), emulated on the CPU from the integer mask they run
// (kernels/convolution/separable_fixed_weights.hpp), against the double
// reference: within the filter ops' u8 tolerance (1 level, at most 1% of samples
// differing) for Gaussians of every radius the kernel takes, and exact for boxes.
// Also which specs the 8-bit kernels accept.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "fixed_point_emulation.hpp"
#include "kernels/convolution/gradient_int_launch.hpp"
#include "kernels/convolution/integer_3x3_launch.hpp"
#include "lab/convolution/separable_fixed_tuning.hpp"
#include "kernels/convolution/separable_fixed_weights.hpp"
#include "kernels/convolution/separable_packed_tuning.hpp"

namespace gpufilter::fixed_point_weights_test {
namespace {

using testing::kGray8;

// The emulated kernel on a gray image with the replicate border, against the reference.
testing::Difference emulate_vs_reference(const FilterSpec& spec, int width, int height, std::uint64_t seed) {
  return testing::emulated_vs_reference(spec, width, height, seed, BorderMode::Replicate, kernels::fixed_point_output);
}

TEST(FixedPointFilter, GaussiansWithinTheOpsTolerance) {
  for (double sigma : {0.3, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 3.0})
    for (int radius = 1; radius <= kernels::SeparableFixedTuning::kMaxRadius; ++radius) {
      GaussianParams params{sigma, radius};
      params.alpha = AlphaMode::Separate;
      const FilterSpec spec = gaussian_spec(params);
      ASSERT_TRUE(kernels::separable_fixed_fits(kGray8, spec));
      const testing::Difference diff = emulate_vs_reference(spec, 160, 120, static_cast<std::uint64_t>(radius * 100 + sigma * 10));
      EXPECT_TRUE(diff.within(testing::u8_filter_tolerance())) << "sigma " << sigma << " radius " << radius << ": " << diff.describe();
      EXPECT_LT(static_cast<double>(diff.differing) / static_cast<double>(diff.samples), 0.005) << "sigma " << sigma << " radius " << radius << ": half the allowance";
    }
}

TEST(FixedPointFilter, AnisotropicGaussian) {
  GaussianParams params{1.5, 4};
  params.sigma_y = 0.7;
  params.radius_y = 2;
  const FilterSpec spec = gaussian_spec(params);
  const testing::Difference diff = emulate_vs_reference(spec, 97, 61, 7);
  EXPECT_TRUE(diff.within(testing::u8_filter_tolerance())) << diff.describe();
}

TEST(FixedPointFilter, BoxesAreExact) {
  for (int w : {1, 3, 5, 7, 9})
    for (int h : {1, 3, 5, 9}) {
      const FilterSpec spec = box_spec(BoxParams{w, h, AlphaMode::Separate});
      const kernels::FixedPointMask mask = kernels::fixed_point_mask(spec);
      EXPECT_EQ(mask.box, w * h > 1);
      const testing::Difference diff = emulate_vs_reference(spec, 83, 47, static_cast<std::uint64_t>(w * 10 + h));
      EXPECT_EQ(diff.max_abs, 0.0) << w << "x" << h << ": " << diff.describe();
    }
}

// Every sum of the largest box and of a Gaussian stays within 32 bits: all-255 input.
TEST(FixedPointFilter, SaturatedInputKeeps255) {
  for (const FilterSpec& spec : {box_spec(BoxParams{9, 9, AlphaMode::Separate}),
                                 gaussian_spec(GaussianParams{0.1, 4, 0.0, 0, AlphaMode::Separate}),
                                 gaussian_spec(GaussianParams{3.0, 4, 0.0, 0, AlphaMode::Separate})}) {
    const kernels::FixedPointMask mask = kernels::fixed_point_mask(spec);
    const std::vector<std::uint8_t> window(81, 255);
    EXPECT_EQ(kernels::fixed_point_output(mask, window.data(), 2 * mask.radius + 1), 255);
  }
}

TEST(FixedPointFilter, WhichSpecsTheIntegerKernelsTake) {
  const PixelFormat rgba{ChannelType::U8, 4}, rgb{ChannelType::U8, 3}, u16{ChannelType::U16, 1};
  GaussianParams blur{1.0, 2};
  blur.alpha = AlphaMode::Separate;
  EXPECT_TRUE(kernels::separable_fixed_fits(kGray8, gaussian_spec(blur)));
  EXPECT_TRUE(kernels::separable_fixed_fits(rgba, gaussian_spec(blur)));
  EXPECT_FALSE(kernels::separable_fixed_fits(u16, gaussian_spec(blur)));
  blur.alpha = AlphaMode::Premultiply;
  EXPECT_TRUE(kernels::separable_fixed_fits(rgb, gaussian_spec(blur))) << "alpha plays no part without a 4th channel";
  EXPECT_FALSE(kernels::separable_fixed_fits(rgba, gaussian_spec(blur))) << "the lab's kernel: alpha separate only";
  EXPECT_FALSE(kernels::separable_fixed_fits(kGray8, gaussian_spec(GaussianParams{2.0, 5})));
  EXPECT_FALSE(kernels::separable_fixed_fits(kGray8, sharpen_spec(SharpenParams{})));
  EXPECT_FALSE(kernels::separable_fixed_fits(kGray8, convolve_spec(ConvolveParams{parse_mask("1 2 1"), true, 0.0, {}})))
      << "a custom mask is not marked convex";
  EXPECT_EQ(applied_variant(gaussian_spec(GaussianParams{1.0, 2}), kGray8, FilterVariant::Auto),
            FilterVariant::SeparablePacked)
      << "auto follows the tunings' measured choices";
  GaussianParams separate{1.0, 2};
  separate.alpha = AlphaMode::Separate;
  EXPECT_EQ(applied_variant(gaussian_spec(separate), rgba, FilterVariant::Auto),
            FilterVariant::SeparablePacked)
      << "auto follows the packed kernel's measured choice for RGBA";
  separate.alpha = AlphaMode::Premultiply;
  EXPECT_NE(applied_variant(gaussian_spec(separate), rgba, FilterVariant::Auto), FilterVariant::SeparablePacked)
      << "premultiplied RGBA Gaussians: the float kernels, exact where the filtered alpha is below a level";
  EXPECT_EQ(applied_variant(box_spec(BoxParams{3, 3, AlphaMode::Premultiply}), rgba, FilterVariant::Auto),
            FilterVariant::SeparablePacked)
      << "premultiplied RGBA boxes: exact sums in the same pass";
  separate.alpha = AlphaMode::Keep;
  EXPECT_EQ(applied_variant(gaussian_spec(separate), rgba, FilterVariant::Auto), FilterVariant::Separable)
      << "kept alpha takes the float path";

  for (EdgeOperator op : {EdgeOperator::Sobel, EdgeOperator::Scharr, EdgeOperator::Prewitt}) {
    EdgeParams edge;
    edge.op = op;
    edge.scale = 0.25;
    EXPECT_TRUE(kernels::gradient_int_fits(kGray8, edge_spec(edge)));
    EXPECT_TRUE(kernels::gradient_int_fits(rgba, edge_spec(edge))) << "alpha kept";
    EXPECT_EQ(applied_variant(edge_spec(edge), kGray8, FilterVariant::Auto), FilterVariant::GradientInt);
    edge.direction = EdgeDirection::X;
    EXPECT_FALSE(kernels::gradient_int_fits(kGray8, edge_spec(edge)));
  }
  EdgeParams laplacian;
  laplacian.op = EdgeOperator::Laplacian;
  EXPECT_FALSE(kernels::gradient_int_fits(kGray8, edge_spec(laplacian)));
  EXPECT_FALSE(kernels::gradient_int_fits(PixelFormat{ChannelType::F32, 1}, edge_spec(EdgeParams{})));
  EdgeParams premultiplied;
  premultiplied.alpha = AlphaMode::Premultiply;
  EXPECT_FALSE(kernels::gradient_int_fits(rgba, edge_spec(premultiplied)));
}

ConvolveParams integer_mask(const char* text, double bias = 0.0) {
  ConvolveParams params;
  params.mask = parse_mask(text);
  params.bias = bias;
  return params;
}

// integer_3x3 takes 8-bit masks up to 3x3 of integer weights (magnitudes summing to at
// most 62) with a bias of whole levels, in every alpha mode; Auto takes it there.
TEST(Integer3x3Choice, IntegerMasksUpTo3x3On8Bits) {
  const PixelFormat rgba{ChannelType::U8, 4};
  const PixelFormat rgb{ChannelType::U8, 3};
  const char* sharpen = "0 -1 0; -1 5 -1; 0 -1 0";
  for (AlphaMode alpha : {AlphaMode::Premultiply, AlphaMode::Separate, AlphaMode::Keep}) {
    ConvolveParams params = integer_mask(sharpen, 0.2);
    params.alpha = alpha;
    EXPECT_TRUE(kernels::integer_3x3_fits(rgba, convolve_spec(params))) << to_string(alpha);
    EXPECT_EQ(applied_variant(convolve_spec(params), rgba, FilterVariant::Auto), FilterVariant::Integer3x3);
  }
  EXPECT_EQ(kernels::integer_3x3_bias(convolve_spec(integer_mask(sharpen, 0.2))), 51);
  EXPECT_EQ(kernels::integer_3x3_bias(convolve_spec(integer_mask(sharpen, -1.0))), -255);
  EXPECT_TRUE(kernels::integer_3x3_fits(kGray8, convolve_spec(integer_mask("-3 0 3"))));
  EXPECT_TRUE(kernels::integer_3x3_fits(rgb, convolve_spec(integer_mask("1; 2; 1"))));
  EXPECT_TRUE(kernels::integer_3x3_fits(kGray8, convolve_spec(integer_mask("2"))));
  EXPECT_TRUE(kernels::integer_3x3_fits(kGray8, convolve_spec(integer_mask("62 0 0; 0 0 0; 0 0 0"))));
  EXPECT_TRUE(kernels::integer_3x3_fits(rgba, emboss_spec(EmbossParams{})));
  EXPECT_EQ(applied_variant(emboss_spec(EmbossParams{}), kGray8, FilterVariant::Auto), FilterVariant::Integer3x3);
  EdgeParams laplacian;
  laplacian.op = EdgeOperator::Laplacian;
  EXPECT_EQ(applied_variant(edge_spec(laplacian), rgb, FilterVariant::Auto), FilterVariant::Integer3x3);
  EdgeParams sobel_x;
  sobel_x.direction = EdgeDirection::X;
  EXPECT_EQ(applied_variant(edge_spec(sobel_x), kGray8, FilterVariant::Auto), FilterVariant::Integer3x3);
  EXPECT_EQ(applied_variant(edge_spec(EdgeParams{}), kGray8, FilterVariant::Auto), FilterVariant::GradientInt)
      << "the magnitude stays on gradient_int";

  EXPECT_FALSE(kernels::integer_3x3_fits(kGray8, convolve_spec(integer_mask("62 1 0; 0 0 0; 0 0 0"))))
      << "magnitudes summing to 63";
  EXPECT_FALSE(kernels::integer_3x3_fits(kGray8, convolve_spec(integer_mask("0 -1 0; -1 5.5 -1; 0 -1 0"))));
  EXPECT_FALSE(kernels::integer_3x3_fits(kGray8, convolve_spec(integer_mask(sharpen, 0.1)))) << "25.5 levels";
  EXPECT_FALSE(kernels::integer_3x3_fits(kGray8, convolve_spec(integer_mask("1 1 1 1 1")))) << "5 wide";
  ConvolveParams normalized = integer_mask("1 2 1; 2 4 2; 1 2 1");
  normalized.normalize = true;
  EXPECT_FALSE(kernels::integer_3x3_fits(kGray8, convolve_spec(normalized)));
  EXPECT_FALSE(kernels::integer_3x3_fits(PixelFormat{ChannelType::U16, 1}, convolve_spec(integer_mask(sharpen))));
  EXPECT_FALSE(kernels::integer_3x3_fits(kGray8, edge_spec(EdgeParams{}))) << "two masks: Magnitude";
  EXPECT_FALSE(kernels::integer_3x3_fits(kGray8, emboss_spec(EmbossParams{"nw", 1.5})));
  SharpenParams unsharp;
  unsharp.radius = 1;
  EXPECT_FALSE(kernels::integer_3x3_fits(kGray8, sharpen_spec(unsharp))) << "the Unsharp rule";
}

}  // namespace
// One contract for Auto: exact by default on every device; the approximating large-sigma
// kernels only where the caller accepts them (Accuracy::Fast, `--accuracy fast`).
TEST(AccuracyContract, AutoApproximatesOnlyWhenAsked) {
  for (const PixelFormat format : {kGray8, PixelFormat{ChannelType::U8, 3}, PixelFormat{ChannelType::U16, 3},
                                   PixelFormat{ChannelType::F32, 4}})
    for (double sigma : {3.0, 3.5, 4.1, 8.0, 30.0, 100.0}) {
      GaussianParams params{sigma, 0};
      const FilterVariant exact = applied_variant(gaussian_spec(params), format, FilterVariant::Auto);
      EXPECT_NE(exact, FilterVariant::BoxStack) << format.name() << " sigma " << sigma;
      EXPECT_NE(exact, FilterVariant::Decimated) << format.name() << " sigma " << sigma;
      params.accuracy = Accuracy::Fast;
      const FilterVariant fast = applied_variant(gaussian_spec(params), format, FilterVariant::Auto);
      // Decimated from a factor of 3 (sigma 4.02); below, the exact kernels: never
      // box_stack, whose corners stray beyond the fast contract.
      if (sigma > 4.02)
        EXPECT_EQ(fast, FilterVariant::Decimated) << format.name() << " sigma " << sigma;
      else
        EXPECT_EQ(fast, exact) << format.name() << " sigma " << sigma << ": " << to_string(fast);
    }
  // The registry's blur takes it as a choice, exact by default.
  const Operation* blur = find_operation("blur");
  ASSERT_NE(blur, nullptr);
  const ParamSpec* accuracy = blur->find_param("accuracy");
  ASSERT_NE(accuracy, nullptr);
  EXPECT_EQ(blur->resolve({}).text("accuracy"), "exact");
  EXPECT_EQ(accuracy_from_name("fast"), Accuracy::Fast);
  // Auto is judged by blur's own tolerance unless the parameters accept an approximation.
  const PixelFormat rgba{ChannelType::U8, 4};
  ParamValues fast_params = blur->resolve({});
  fast_params["accuracy"] = std::string("fast");
  EXPECT_EQ(blur->tolerance_for(rgba, "auto").max_abs, blur->tolerance(rgba).max_abs);
  EXPECT_EQ(blur->tolerance_for(rgba, "auto", fast_params).max_abs, blur->tolerance_for(rgba, "decimated").max_abs);
  EXPECT_GT(blur->tolerance_for(rgba, "decimated").max_abs, blur->tolerance(rgba).max_abs);
  EXPECT_GT(blur->tolerance_for(rgba, "box_stack").max_abs, blur->tolerance_for(rgba, "decimated").max_abs);
  EXPECT_THROW(accuracy_from_name("approximate"), Error);
}

}  // namespace gpufilter::fixed_point_weights_test
