// gpufilter/jpeg_color.hpp on the GPU against its CPU side (which tests/jpeg_color_test.cpp
// holds against libjpeg itself): random planes of every subsampling the step takes, odd
// sizes, the narrow widths libjpeg replicates, sub-views at odd byte offsets; the output
// poisoned first, a guard band around it untouched. Exact.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/jpeg_color.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter::gpu_jpeg_color_test {
namespace {

constexpr int kMargin = 5;  // columns and rows around each view
const PixelFormat kPlane{ChannelType::U8, 1};
const PixelFormat kRgb{ChannelType::U8, 3};

// Host and device copies of one plane, the view `offset` columns and 1 row in.
struct PlanePair {
  HostImage host;
  DeviceImage device;
  ImageView host_view, device_view;
  PlanePair(int width, int height, int offset, std::uint64_t seed)
      : host(width + 2 * kMargin, height + 2, kPlane), device(width + 2 * kMargin, height + 2, kPlane) {
    testing::fill_random(host.view(), seed);
    copy_image_async(host.view(), device.view(), nullptr);
    host_view = host.view().subview(offset, 1, width, height);
    device_view = device.view().subview(offset, 1, width, height);
  }
};

void expect_same_as_cpu(int width, int height, int h, int v, int offset) {
  SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " h" + std::to_string(h) + "v" +
               std::to_string(v) + " offset " + std::to_string(offset));
  const int chroma_width = (width + h - 1) / h;
  const int chroma_height = (height + v - 1) / v;
  const std::uint64_t seed = static_cast<std::uint64_t>(width) * 7919 + height * 31 + h * 3 + v;
  PlanePair y(width, height, offset, seed);
  PlanePair cb(chroma_width, chroma_height, offset + 1, seed + 1);
  PlanePair cr(chroma_width, chroma_height, offset + 2, seed + 2);

  HostImage expected(width + 2 * kMargin, height + 2, kRgb);
  HostImage initial(width + 2 * kMargin, height + 2, kRgb);
  HostImage actual(width + 2 * kMargin, height + 2, kRgb);
  testing::fill_random(expected.view(), seed + 3);
  copy_image_async(expected.view(), initial.view(), nullptr);
  const ImageView expected_part = expected.view().subview(offset, 1, width, height);
  ycc_planes_to_rgb_cpu({y.host_view, cb.host_view, cr.host_view, h, v}, expected_part);
  testing::poison_against(initial.view().subview(offset, 1, width, height), expected_part);

  DeviceImage dst(width + 2 * kMargin, height + 2, kRgb);
  copy_image_async(initial.view(), dst.view(), nullptr);
  ycc_planes_to_rgb({y.device_view, cb.device_view, cr.device_view, h, v}, dst.view().subview(offset, 1, width, height),
                    ExecContext{nullptr, true});
  copy_image_async(dst.view(), actual.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  const testing::Difference difference = testing::compare(actual.view(), expected.view());
  EXPECT_TRUE(difference.within(0.0)) << difference.describe();
}

TEST(GpuJpegColor, EverySubsamplingSizeAndOffsetAsTheCpuSide) {
  for (const auto& [h, v] : {std::pair{2, 2}, std::pair{2, 1}, std::pair{1, 2}, std::pair{1, 1}})
    for (const auto& [width, height] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{3, 3}, std::pair{4, 5},
                                        std::pair{5, 2}, std::pair{37, 23}, std::pair{64, 48}, std::pair{333, 129}})
      for (int offset : {0, 3}) expect_same_as_cpu(width, height, h, v, offset);
}

TEST(GpuJpegColor, TallImagesWalkEveryRow) {
  // More rows than one grid's height in blocks covers (the kernel's row loop).
  expect_same_as_cpu(7, 600000, 2, 2, 1);
}

}  // namespace
}  // namespace gpufilter::gpu_jpeg_color_test
