// GPU behaviour beyond the registry matrix: the parameter range, many masks across
// streams (the __constant__ mask slots), and the copy kernels' unaligned paths.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter::gpu_blur_test {
namespace {

// Runs the blur on the GPU and the reference on the CPU; returns the difference.
testing::Difference blur_vs_reference(int width, int height, PixelFormat format, const GaussianParams& params,
                                      const Border& border, FilterVariant variant, cudaStream_t stream = nullptr) {
  HostImage host_src(width, height, format), expected(width, height, format), actual(width, height, format);
  testing::fill_random(host_src.view(), static_cast<std::uint32_t>(width * 31 + height));
  reference::gaussian_blur(host_src.view(), expected.view(), params, border);
  testing::poison_against(actual.view(), expected.view());
  DeviceImage src(width, height, format), dst(width, height, format);
  copy_image_async(host_src.view(), src.view(), stream);
  copy_image_async(actual.view(), dst.view(), stream);
  gaussian_blur(src.view(), dst.view(), params, border, variant, ExecContext{stream, true});
  copy_image_async(dst.view(), actual.view(), stream);
  GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream));
  return testing::compare(actual.view(), expected.view());
}

Tolerance blur_tolerance(PixelFormat format) { return find_operation("blur")->tolerance(format); }

struct ParamCase {
  double sigma;
  int radius;
  double sigma_y = 0.0;
};

class BlurParams : public ::testing::TestWithParam<ParamCase> {};

// Every radius with a compile-time kernel of its own (1 to 4), runtime radii either
// side, anisotropic masks and large sigmas (the two-pass separable kernel), for every
// format and border mode. Masks beyond radius 32 run separably only: the 2-D variants
// would take minutes under the sanitizers.
TEST_P(BlurParams, EveryVariantMatchesReference) {
  GaussianParams params{GetParam().sigma, GetParam().radius};
  params.sigma_y = GetParam().sigma_y;
  const bool large = params.effective_radius() > 32 || params.effective_radius_y() > 32;
  const std::vector<FilterVariant> variants =
      large ? std::vector<FilterVariant>{FilterVariant::Separable}
            : std::vector<FilterVariant>{FilterVariant::Naive, FilterVariant::Constant, FilterVariant::Tiled,
                                         FilterVariant::TiledL2, FilterVariant::Separable};
  for (FilterVariant variant : variants)
    for (const PixelFormat& format : all_pixel_formats())
      for (BorderMode mode : all_border_modes()) {
        Border border;
        border.mode = mode;
        for (int c = 0; c < 4; ++c) border.value[static_cast<std::size_t>(c)] = format.max_value() * (c + 2) / 7.0;
        const testing::Difference diff = blur_vs_reference(67, 45, format, params, border, variant);
        EXPECT_TRUE(diff.within(blur_tolerance(format)))
            << format.name() << " " << to_string(mode) << " variant " << to_string(variant) << ": "
            << diff.describe();
      }
}

INSTANTIATE_TEST_SUITE_P(Range, BlurParams,
                         ::testing::Values(ParamCase{0.1, 0}, ParamCase{0.5, 1}, ParamCase{1.0, 2}, ParamCase{0.8, 3},
                                           ParamCase{1.2, 4}, ParamCase{1.5, 5}, ParamCase{3.0, 0},
                                           ParamCase{1.0, 0}, ParamCase{10.0, 0},
                                           ParamCase{10.0, 32}, ParamCase{1.0, 0, 3.0}, ParamCase{2.5, 4, 0.6},
                                           ParamCase{30.0, 0}, ParamCase{8.0, 0, 40.0},
                                           ParamCase{GaussianParams::kMaxSigma, 0}),
                         [](const ::testing::TestParamInfo<ParamCase>& param_info) {
                           return "case" + std::to_string(param_info.index);
                         });

// The strip kernel behind `separable` (1- and 4-channel images and 8-bit RGB; RGB of 16
// and 32 bits takes the tiled kernel) walks a band of columns down strips of rows and
// reads the rows near the top and bottom through the border: images wider than a band
// and taller than a strip, masks between the compiled radii (run in the next one up,
// their outer taps zero), premultiplied alpha, and the borders that read outside.
TEST(SeparableStrip, RadiiBetweenTheCompiledOnesOnImagesWiderThanABand) {
  for (int radius : {7, 9, 13, 20, 24})
    for (const PixelFormat& format : all_pixel_formats())
      for (BorderMode mode : {BorderMode::Reflect101, BorderMode::Constant, BorderMode::Wrap}) {
        GaussianParams params{radius / 3.0, radius};
        params.alpha = AlphaMode::Premultiply;
        Border border;
        border.mode = mode;
        for (int c = 0; c < 4; ++c) border.value[static_cast<std::size_t>(c)] = format.max_value() * (c + 1) / 6.0;
        const testing::Difference diff = blur_vs_reference(531, 97, format, params, border, FilterVariant::Separable);
        EXPECT_TRUE(diff.within(blur_tolerance(format)))
            << format.name() << " " << to_string(mode) << " radius " << radius << ": " << diff.describe();
      }
}

// More distinct masks than there are __constant__ slots, alternating between two
// streams with no synchronisation between calls: each result must still use its
// own mask.
TEST(BlurMaskSlots, ManyMasksOnTwoStreams) {
  constexpr int kCalls = 40;
  const PixelFormat format{ChannelType::F32, 1};
  const int width = 300, height = 200;
  HostImage host_src(width, height, format);
  testing::fill_random(host_src.view(), 7u);
  DeviceImage src(width, height, format);
  copy_image_async(host_src.view(), src.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());

  Stream streams[2];
  std::vector<DeviceImage> outputs;
  std::vector<GaussianParams> params;
  for (int i = 0; i < kCalls; ++i) {
    params.push_back(GaussianParams{0.3 + 0.2 * i, 0});
    outputs.emplace_back(width, height, format);
    gaussian_blur(src.view(), outputs.back().view(), params.back(), Border{}, FilterVariant::Separable,
                  ExecContext{streams[i % 2].get(), false});
  }
  for (Stream& s : streams) s.synchronize();
  for (int i = 0; i < kCalls; ++i) {
    HostImage expected(width, height, format), actual(width, height, format);
    reference::gaussian_blur(host_src.view(), expected.view(), params[static_cast<std::size_t>(i)], Border{});
    copy_image_async(outputs[static_cast<std::size_t>(i)].view(), actual.view(), nullptr);
    GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
    const testing::Difference diff = testing::compare(actual.view(), expected.view());
    EXPECT_LE(diff.max_abs, 1e-4) << "call " << i << " sigma " << params[static_cast<std::size_t>(i)].sigma << ": "
                                  << diff.describe();
  }
}

// Source and destination rows at different offsets mod 16 cannot move in 16-byte
// pieces: the vectorized copy must still be exact.
TEST(CopyKernels, MisalignedViewsCopyExactly) {
  const PixelFormat format{ChannelType::U8, 1};
  for (int dst_x : {0, 1, 5, 15})
    for (CopyVariant variant : {CopyVariant::Scalar, CopyVariant::Vectorized}) {
      const int width = 1000, height = 7;
      HostImage host_src(width + 16, height, format), host_dst(width + 16, height, format);
      testing::fill_random(host_src.view(), 3u);
      testing::fill_random(host_dst.view(), 4u);
      DeviceImage src(width + 16, height, format), dst(width + 16, height, format);
      copy_image_async(host_src.view(), src.view(), nullptr);
      copy_image_async(host_dst.view(), dst.view(), nullptr);
      copy(src.view().subview(3, 0, width, height), dst.view().subview(dst_x, 0, width, height), variant,
           ExecContext{nullptr, true});
      copy_image_async(dst.view(), host_dst.view(), nullptr);
      GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
      const testing::Difference diff =
          testing::compare(host_dst.view().subview(dst_x, 0, width, height), host_src.view().subview(3, 0, width, height));
      EXPECT_EQ(diff.max_abs, 0.0) << "dst_x " << dst_x << ": " << diff.describe();
    }
}

TEST(DeviceImages, TooLargeForTheGpuSaysSo) {
  try {
    DeviceImage huge(200000, 200000, PixelFormat{ChannelType::F32, 4});
    FAIL() << "a 596 GiB image was allocated";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("200000x200000"), std::string::npos) << e.what();
  }
}

TEST(GpuOps, HostPointersAreRefused) {
  HostImage a(8, 8, PixelFormat{}), b(8, 8, PixelFormat{});
  EXPECT_THROW(gaussian_blur(a.view(), b.view(), GaussianParams{}), Error);
  EXPECT_THROW(copy(a.view(), b.view()), Error);
}

}  // namespace
}  // namespace gpufilter::gpu_blur_test
