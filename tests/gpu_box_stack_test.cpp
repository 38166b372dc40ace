// blur's large-sigma variants (box_stack: stacked box filters; decimated: Gaussian
// decimation, residual and interpolation; any sigma at one cost) against the CPU
// reference's truncated Gaussian, each within the contract the registry states for it
// (Operation::tolerance_for(format, variant)): sigma 3 to 100, every format and
// border, odd sizes, images smaller than the radius, several segments per walk,
// sub-views at odd byte offsets, anisotropic sigmas, straight edges and alpha modes.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "convolution/box_stack_launch.hpp"
#include "convolution/decimated_plan.hpp"
#include "lab/common/lab_checks.hpp"

namespace gpufilter::gpu_box_stack_test {
namespace {

Tolerance tolerance_of(FilterVariant variant, PixelFormat format) {
  return find_operation("blur")->tolerance_for(format, to_string(variant));
}

Border border_of(BorderMode mode, PixelFormat format) {
  Border border;
  border.mode = mode;
  for (int c = 0; c < 4; ++c) border.value[static_cast<std::size_t>(c)] = format.max_value() * (c + 2) / 7.0;
  return border;
}

// Sets every sample of `view` (host) from f(x, y, channel) as a fraction of the range.
template <class F>
void fill(const ImageView& view, F&& f) {
  const int channels = view.format.channels;
  for (int y = 0; y < view.height; ++y) {
    auto* row = static_cast<unsigned char*>(view.data) + static_cast<std::size_t>(y) * view.pitch;
    for (int x = 0; x < view.width; ++x)
      for (int c = 0; c < channels; ++c) {
        const double v = f(x, y, c);
        const std::size_t i = static_cast<std::size_t>(x) * channels + c;
        switch (view.format.type) {
          case ChannelType::U8: row[i] = static_cast<std::uint8_t>(v * 255.0 + 0.5); break;
          case ChannelType::U16: reinterpret_cast<std::uint16_t*>(row)[i] = static_cast<std::uint16_t>(v * 65535.0 + 0.5); break;
          case ChannelType::F32: reinterpret_cast<float*>(row)[i] = static_cast<float>(v); break;
        }
      }
  }
}

struct BlurRun {
  int width, height;
  PixelFormat format;
  GaussianParams params;
  Border border;
  FilterVariant variant = FilterVariant::BoxStack;
  bool two_pass = false;  // the lab's box_stack_two_pass (variant BoxStack: the same contract)
  // Sub-views: the input and output start at these pixel offsets inside larger images.
  int src_x = 0, src_y = 0, dst_x = 0, dst_y = 0;
};

// Runs the blur on the GPU (on sub-views where asked) and the reference on the CPU.
template <class Fill>
testing::Difference blur_vs_reference(const BlurRun& run, Fill&& fill_input) {
  HostImage host_src(run.width, run.height, run.format), expected(run.width, run.height, run.format),
      actual(run.width, run.height, run.format);
  fill_input(host_src.view());
  reference::gaussian_blur(host_src.view(), expected.view(), run.params, run.border);
  testing::poison_against(actual.view(), expected.view());
  DeviceImage src(run.width + run.src_x + 3, run.height + run.src_y + 2, run.format);
  DeviceImage dst(run.width + run.dst_x + 1, run.height + run.dst_y + 3, run.format);
  const ImageView src_view = src.view().subview(run.src_x, run.src_y, run.width, run.height);
  const ImageView dst_view = dst.view().subview(run.dst_x, run.dst_y, run.width, run.height);
  copy_image_async(host_src.view(), src_view, nullptr);
  copy_image_async(actual.view(), dst_view, nullptr);
  if (run.two_pass && kernels::box_stack_fits(gaussian_spec(run.params)))
    kernels::launch_box_stack(src_view, dst_view, gaussian_spec(run.params), lab::representable(run.border, run.format),
                              kernels::BoxStackShape::TwoPass, ExecContext{nullptr, true});
  else
    gaussian_blur(src_view, dst_view, run.params, run.border, run.variant, ExecContext{nullptr, true});
  copy_image_async(dst_view, actual.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  return testing::compare(actual.view(), expected.view());
}

// box_stack (one pass where it fits) and the lab's box_stack_two_pass: the same
// contract; decimated: its own, closer one.
struct Shape {
  FilterVariant variant;
  bool two_pass;
};
const Shape kShapes[] = {
    {FilterVariant::BoxStack, false}, {FilterVariant::BoxStack, true}, {FilterVariant::Decimated, false}};

auto random_input(std::uint64_t seed) {
  return [seed](const ImageView& view) { testing::fill_random(view, seed); };
}

std::string describe(const BlurRun& run, const testing::Difference& diff) {
  return run.format.name() + " " + std::to_string(run.width) + "x" + std::to_string(run.height) + " sigma " +
         std::to_string(run.params.sigma) + "/" + std::to_string(run.params.effective_sigma_y()) + " " +
         to_string(run.border.mode) + " alpha " + to_string(run.params.alpha) + " variant " + to_string(run.variant) + (run.two_pass ? " (two passes)" : "") +
         ": " + diff.describe();
}

GaussianParams gaussian(double sigma, double sigma_y = 0.0, AlphaMode alpha = AlphaMode::Premultiply) {
  GaussianParams params{sigma, 0};
  params.sigma_y = sigma_y;
  params.alpha = alpha;
  return params;
}

// The same Gaussian where the caller accepts an approximation (Accuracy::Fast).
GaussianParams fast(GaussianParams params) {
  params.accuracy = Accuracy::Fast;
  return params;
}

TEST(BoxStackVariant, RunsLargeGaussiansAndFallsBackOtherwise) {
  const PixelFormat format{ChannelType::U8, 4};
  EXPECT_EQ(applied_variant(gaussian_spec(gaussian(3.0)), format, FilterVariant::BoxStack), FilterVariant::BoxStack);
  EXPECT_EQ(applied_variant(gaussian_spec(gaussian(100.0)), format, FilterVariant::BoxStack), FilterVariant::BoxStack);
  EXPECT_EQ(applied_variant(gaussian_spec(gaussian(2.0)), format, FilterVariant::BoxStack), FilterVariant::Separable)
      << "below sigma 3 the exact kernel runs";
  EXPECT_EQ(applied_variant(gaussian_spec(gaussian(30.0, 2.0)), format, FilterVariant::BoxStack),
            FilterVariant::Separable)
      << "both axes must reach sigma 3";
  EXPECT_EQ(applied_variant(gaussian_spec(GaussianParams{20.0, 10}), format, FilterVariant::BoxStack),
            FilterVariant::Separable)
      << "a mask cut at half a sigma is no Gaussian the boxes follow";
  EXPECT_NE(applied_variant(box_spec(BoxParams{31}), format, FilterVariant::BoxStack), FilterVariant::BoxStack);
  EXPECT_NE(applied_variant(sharpen_spec(SharpenParams{10.0}), format, FilterVariant::BoxStack),
            FilterVariant::BoxStack);
  EXPECT_NE(applied_variant(gaussian_spec(fast(gaussian(2.0))), format, FilterVariant::Auto), FilterVariant::BoxStack);
  // box_stack runs by name only: even where an approximation is accepted, Auto never
  // takes it (its corners stray beyond the fast contract).
  const PixelFormat gray{ChannelType::U8, 1};
  for (double sigma : {3.0, 4.0, 8.0, 30.0})
    for (const PixelFormat f : {format, gray})
      EXPECT_NE(applied_variant(gaussian_spec(fast(gaussian(sigma))), f, FilterVariant::Auto), FilterVariant::BoxStack)
          << f.name() << " sigma " << sigma;
  // By default Auto is exact: never an approximating kernel.
  for (double sigma : {3.0, 4.1, 8.0, 30.0, 100.0})
    for (const PixelFormat f : {format, gray, PixelFormat{ChannelType::F32, 3}}) {
      const FilterVariant applied = applied_variant(gaussian_spec(gaussian(sigma)), f, FilterVariant::Auto);
      EXPECT_NE(applied, FilterVariant::BoxStack) << "sigma " << sigma << " " << f.name();
      EXPECT_NE(applied, FilterVariant::Decimated) << "sigma " << sigma << " " << f.name();
    }
}

// The one-pass kernel takes the targets' sigmas on every format; the stack's reach
// leaves it no strip from sigma ~75 on, where box_stack runs in two passes.
TEST(BoxStackVariant, OnePassUpToItsReach) {
  for (const PixelFormat& format : all_pixel_formats()) {
    EXPECT_TRUE(kernels::box_stack_fused_fits(format, gaussian_spec(gaussian(8.0)))) << format.name();
    EXPECT_TRUE(kernels::box_stack_fused_fits(format, gaussian_spec(gaussian(30.0)))) << format.name();
    EXPECT_FALSE(kernels::box_stack_fused_fits(format, gaussian_spec(gaussian(100.0)))) << format.name();
    EXPECT_FALSE(kernels::box_stack_fused_fits(format, gaussian_spec(gaussian(2.0)))) << format.name();
  }
}

// Noise, every format and border, sigma 3 to 100 on one odd size; sigmas below 6 also
// on a taller image, so the column walk runs several segments (256 rows each).
TEST(BoxStackContract, EveryFormatBorderAndSigma) {
  for (const Shape& shape : kShapes)
    for (double sigma : {3.0, 4.7, 8.0, 17.5, 30.0, 64.0, 100.0})
      for (const PixelFormat& format : all_pixel_formats())
        for (BorderMode mode : all_border_modes()) {
          const int height = sigma < 6.0 ? 613 : 45;
          BlurRun run{67, height, format, gaussian(sigma), border_of(mode, format)};
          run.variant = shape.variant;
          run.two_pass = shape.two_pass;
          const testing::Difference diff = blur_vs_reference(run, random_input(17));
          EXPECT_TRUE(diff.within(tolerance_of(run.variant, format))) << describe(run, diff);
        }
}

// Several segments in both walks (sigma 8: 256-row segments after 2R = 48 rows of
// warm-up; sigma 30: 384-row segments), on the formats the targets name.
TEST(BoxStackContract, ManySegments) {
  for (const Shape& shape : kShapes)
    for (double sigma : {8.0, 30.0})
      for (const PixelFormat format :
           {PixelFormat{ChannelType::U8, 4}, PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::F32, 3}})
        for (BorderMode mode : {BorderMode::Reflect101, BorderMode::Constant}) {
          BlurRun run{1100, 901, format, gaussian(sigma, 0.0, AlphaMode::Separate), border_of(mode, format)};
          run.variant = shape.variant;
          run.two_pass = shape.two_pass;
          const testing::Difference diff = blur_vs_reference(run, random_input(5));
          EXPECT_TRUE(diff.within(tolerance_of(run.variant, format))) << describe(run, diff);
        }
}

// Wide images: many strips a row, so few segments a column and long walks, where the
// row buffers are reused batch after batch (the small cases above cut every column
// into segments of a few rows).
TEST(BoxStackContract, LongWalks) {
  for (FilterVariant variant : {FilterVariant::BoxStack, FilterVariant::Decimated})
    for (double sigma : {3.0, 8.0, 30.0})
      for (const PixelFormat format : {PixelFormat{ChannelType::U8, 4}, PixelFormat{ChannelType::U8, 1}}) {
        BlurRun run{7680, 720, format, gaussian(sigma, 0.0, AlphaMode::Separate),
                    border_of(BorderMode::Reflect101, format)};
        run.variant = variant;
        const testing::Difference diff = blur_vs_reference(run, random_input(31));
        EXPECT_TRUE(diff.within(tolerance_of(run.variant, format))) << describe(run, diff);
      }
}

TEST(BoxStackContract, ImagesSmallerThanTheRadius) {
  for (const Shape& shape : kShapes)
    for (double sigma : {5.0, 30.0, 100.0})
      for (const auto& size : std::vector<std::pair<int, int>>{{1, 1}, {3, 2}, {1, 40}, {33, 1}, {7, 5}})
        for (const PixelFormat format :
             {PixelFormat{ChannelType::U8, 3}, PixelFormat{ChannelType::U16, 1}, PixelFormat{ChannelType::F32, 4}})
          for (BorderMode mode : all_border_modes()) {
            BlurRun run{size.first, size.second, format, gaussian(sigma), border_of(mode, format)};
            run.variant = shape.variant;
            run.two_pass = shape.two_pass;
            const testing::Difference diff = blur_vs_reference(run, random_input(3));
            EXPECT_TRUE(diff.within(tolerance_of(run.variant, format))) << describe(run, diff);
          }
}

// Rows starting at any byte offset (u8 gray at odd x), pitches that are no multiple of
// anything, anisotropic sigmas either way.
TEST(BoxStackContract, SubViewsAndAnisotropicSigmas) {
  struct Case {
    double sigma, sigma_y;
  };
  for (const Shape& shape : kShapes)
    for (const Case& c : {Case{8.0, 40.0}, Case{30.0, 3.0}, Case{3.5, 12.0}})
      for (const PixelFormat& format : all_pixel_formats()) {
        BlurRun run{301, 77, format, gaussian(c.sigma, c.sigma_y), border_of(BorderMode::Reflect, format)};
        run.variant = shape.variant;
        run.two_pass = shape.two_pass;
        run.src_x = 3;
        run.src_y = 1;
        run.dst_x = 1;
        run.dst_y = 2;
        const testing::Difference diff = blur_vs_reference(run, random_input(11));
        EXPECT_TRUE(diff.within(tolerance_of(run.variant, format))) << describe(run, diff);
      }
}

// The case the contract is written for: straight edges between flat areas, across and
// along, where the stack's step response is all that differs (within 2.8 levels of 255).
// Borders that add no corner (a constant border around the image adds four, where
// the two axes' step errors add up: docs/techniques/convolution.md).
TEST(BoxStackContract, StraightEdges) {
  for (const Shape& shape : kShapes)
    for (double sigma : {3.0, 8.0, 30.0, 100.0})
      for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 4},
                                       PixelFormat{ChannelType::U16, 3}, PixelFormat{ChannelType::F32, 1}})
        for (BorderMode mode : {BorderMode::Replicate, BorderMode::Reflect101, BorderMode::Wrap})
          for (bool vertical : {true, false}) {
            // Wrapping an image narrower than the mask sums the cut Gaussian's tails around
            // it several times, where the stack's smoother tails differ (4 levels at sigma
            // 100 on 257 pixels): outside the contract (docs/techniques/convolution.md).
            if (mode == BorderMode::Wrap && 3.0 * sigma > 251) continue;
            BlurRun run{257, 251, format, gaussian(sigma, 0.0, AlphaMode::Separate), border_of(mode, format)};
            run.variant = shape.variant;
            run.two_pass = shape.two_pass;
            const testing::Difference diff = blur_vs_reference(run, [&](const ImageView& view) {
              fill(view, [&](int x, int y, int c) { return ((vertical ? x : y) < 128 ? 0.1 : 0.9) - 0.05 * c; });
            });
            EXPECT_TRUE(diff.within(tolerance_of(run.variant, format)))
                << (vertical ? "vertical " : "horizontal ") << describe(run, diff);
          }
}

TEST(BoxStackContract, AlphaModes) {
  const PixelFormat format{ChannelType::U8, 4};
  for (const Shape& shape : kShapes)
    for (AlphaMode alpha : {AlphaMode::Premultiply, AlphaMode::Separate, AlphaMode::Keep}) {
      BlurRun run{129, 97, format, gaussian(8.0, 0.0, alpha), border_of(BorderMode::Replicate, format)};
      run.variant = shape.variant;
      run.two_pass = shape.two_pass;
      const testing::Difference diff = blur_vs_reference(run, random_input(23));
      EXPECT_TRUE(diff.within(tolerance_of(run.variant, format))) << describe(run, diff);
    }
}

TEST(DecimatedVariant, RunsLargeGaussiansAndFallsBackOtherwise) {
  const PixelFormat format{ChannelType::U8, 4};
  const FilterVariant decimated = FilterVariant::Decimated;
  EXPECT_EQ(applied_variant(gaussian_spec(gaussian(3.0)), format, decimated), decimated);
  EXPECT_EQ(applied_variant(gaussian_spec(gaussian(100.0, 3.0)), format, decimated), decimated);
  EXPECT_EQ(applied_variant(gaussian_spec(gaussian(2.0)), format, decimated), FilterVariant::Separable);
  EXPECT_EQ(applied_variant(gaussian_spec(GaussianParams{20.0, 10}), format, decimated), FilterVariant::Separable);
  EXPECT_NE(applied_variant(box_spec(BoxParams{31}), format, decimated), decimated);
  EXPECT_NE(applied_variant(sharpen_spec(SharpenParams{10.0}), format, decimated), decimated);
  // Auto (DecimatedTuning::kAutoMinFactor): from a factor of 3 on both axes (sigma 4.02),
  // any format.
  for (const PixelFormat f : {format, PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::F32, 3}}) {
    EXPECT_EQ(applied_variant(gaussian_spec(fast(gaussian(4.1))), f, FilterVariant::Auto), decimated) << f.name();
    EXPECT_NE(applied_variant(gaussian_spec(fast(gaussian(4.0))), f, FilterVariant::Auto), decimated) << f.name();
    EXPECT_EQ(applied_variant(gaussian_spec(fast(gaussian(8.0))), f, FilterVariant::Auto), decimated) << f.name();
    EXPECT_EQ(applied_variant(gaussian_spec(fast(gaussian(30.0))), f, FilterVariant::Auto), decimated) << f.name();
    EXPECT_NE(applied_variant(gaussian_spec(fast(gaussian(3.0))), f, FilterVariant::Auto), decimated) << f.name();
    EXPECT_NE(applied_variant(gaussian_spec(fast(gaussian(30.0, 4.0))), f, FilterVariant::Auto), decimated)
        << f.name();
  }
}

// Fine detail near the low-res grid's frequency, where sampling would show if the down
// Gaussian let it through: stripes of period 2h, h and h / 2 (and a checkerboard), each
// axis, at the factors sigma 3, 8 and 30 take.
TEST(DecimatedContract, PeriodicDetailNearTheGrid) {
  const PixelFormat format{ChannelType::U8, 1};
  for (double sigma : {3.0, 8.0, 30.0}) {
    const int h = kernels::decimated_axis(gaussian_weights(sigma, 0)).factor;
    for (double period : {2.0 * h, 1.0 * h, 0.5 * h + 0.25, 2.0})
      for (bool vertical : {true, false}) {
        BlurRun run{301, 203, format, gaussian(sigma, 0.0, AlphaMode::Separate),
                    border_of(BorderMode::Reflect101, format)};
        run.variant = FilterVariant::Decimated;
        const testing::Difference diff = blur_vs_reference(run, [&](const ImageView& view) {
          fill(view, [&](int x, int y, int) {
            const int i = vertical ? x : y;
            return std::fmod(i, period) < period / 2 ? 0.95 : 0.05;
          });
        });
        EXPECT_TRUE(diff.within(tolerance_of(run.variant, format)))
            << "period " << period << (vertical ? " across " : " down ") << describe(run, diff);
      }
  }
}

// With Accuracy::Fast, Auto picks decimated from its crossover on and the exact kernels
// below: within decimated's contract at every border, constant ones included.
TEST(BoxStackContract, FastAutoAtLargeSigma) {
  const PixelFormat format{ChannelType::U8, 4};
  for (BorderMode mode : {BorderMode::Reflect101, BorderMode::Constant})
    for (double sigma : {3.0, 5.0, 30.0}) {
      BlurRun run{200, 150, format, fast(gaussian(sigma)), border_of(mode, format)};
      run.variant = FilterVariant::Auto;
      const testing::Difference diff = blur_vs_reference(run, random_input(29));
      EXPECT_TRUE(diff.within(tolerance_of(FilterVariant::Decimated, format))) << describe(run, diff);
    }
}

// One answer to one question: by default Auto gives the exact Gaussian on the GPU, as
// the CPU path does (within blur's own tolerance: 1 level of 8 bits), at the sigmas and
// borders where it once took box_stack (5 levels off on gray with a constant border).
TEST(AccuracyContract, AutoIsExactByDefault) {
  for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::U8, 3},
                                   PixelFormat{ChannelType::U16, 3}, PixelFormat{ChannelType::F32, 4}})
    for (BorderMode mode : {BorderMode::Constant, BorderMode::Reflect101})
      for (double sigma : {3.0, 5.0, 8.0}) {
        BlurRun run{53, 37, format, gaussian(sigma, 0.0, AlphaMode::Separate), border_of(mode, format)};
        run.variant = FilterVariant::Auto;
        const testing::Difference diff = blur_vs_reference(run, random_input(31));
        EXPECT_TRUE(diff.within(find_operation("blur")->tolerance_for(format, "auto"))) << describe(run, diff);
      }
}

}  // namespace
}  // namespace gpufilter::gpu_box_stack_test
