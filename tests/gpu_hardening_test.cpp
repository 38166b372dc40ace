// Regression tests for defects found by trying the library as a demanding user would:
// a race between streams on a __constant__ mask slot, images taller than a grid's y
// limit, and tiles larger than a smaller GPU's shared memory.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "convolution/separable_launch.hpp"
#include "convolution/mask_slots.hpp"
#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "shared_memory_cap.hpp"

namespace gpufilter::gpu_hardening_test {
namespace {

void CUDART_CB hold_stream(void* milliseconds) {
  std::this_thread::sleep_for(std::chrono::milliseconds(*static_cast<int*>(milliseconds)));
}

Tolerance blur_tolerance(PixelFormat format) { return find_operation("blur")->tolerance(format); }

// Whether the one-kernel separable blur of this radius fits the shared memory limit.
bool separable_tiled_fits(PixelFormat format, int radius) {
  return kernels::separable_tiled_fits(format, gaussian_spec(GaussianParams{1.0, radius}));
}

// The same blur enqueued on stream A (held by a host function, so the mask's upload
// waits behind it) and then on stream B: B must not read the slot before A's upload.
// Every round first fills all 16 slots with other masks, so the slot B reads holds
// stale weights until the upload lands.
TEST(BlurMaskSlots, SameMaskOnAnotherStreamWaitsForItsUpload) {
  const PixelFormat format{ChannelType::F32, 1};
  const int width = 256, height = 64;
  HostImage host_src(width, height, format), expected(width, height, format), actual(width, height, format);
  testing::fill_random(host_src.view(), 11u);
  DeviceImage src(width, height, format), dst_a(width, height, format), dst_b(width, height, format);
  copy_image_async(host_src.view(), src.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());

  Stream a, b;
  int hold_ms = 150;
  constexpr int kRounds = 6;
  for (int round = 0; round < kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    for (int i = 0; i < 16; ++i)  // other masks into every slot
      gaussian_blur(src.view(), dst_a.view(), GaussianParams{0.3 + 0.05 * i + round, 0}, Border{},
                    FilterVariant::Separable, ExecContext{a.get(), false});
    a.synchronize();
    const GaussianParams params{1.13 + 0.1 * round, 3};
    GPUFILTER_CUDA_CHECK(cudaLaunchHostFunc(a.get(), hold_stream, &hold_ms));
    gaussian_blur(src.view(), dst_a.view(), params, Border{}, FilterVariant::Separable, ExecContext{a.get(), false});
    gaussian_blur(src.view(), dst_b.view(), params, Border{}, FilterVariant::Separable, ExecContext{b.get(), false});
    b.synchronize();
    a.synchronize();
    reference::gaussian_blur(host_src.view(), expected.view(), params, Border{});
    copy_image_async(dst_b.view(), actual.view(), nullptr);
    GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
    const testing::Difference diff = testing::compare(actual.view(), expected.view());
    ASSERT_TRUE(diff.within(blur_tolerance(format))) << "stream B: " << diff.describe();
  }
}

// Streams come and go; the slots' bookkeeping must not grow with them.
TEST(BlurMaskSlots, EventsStayBoundedAcrossManyStreams) {
  constexpr int kSlots = 4, kTaps = 5;
  void* device_memory = nullptr;
  GPUFILTER_CUDA_CHECK(cudaMalloc(&device_memory, sizeof(float) * kSlots * kTaps));
  float* device_masks = static_cast<float*>(device_memory);
  kernels::MaskSlots slots(kSlots, kTaps, [&](int slot, const float* weights, int count, cudaStream_t stream) {
    GPUFILTER_CUDA_CHECK(cudaMemcpyAsync(device_masks + slot * kTaps, weights, sizeof(float) * count,
                                         cudaMemcpyHostToDevice, stream));
  });
  for (int i = 0; i < 300; ++i) {
    Stream stream;
    const std::vector<float> weights(kTaps, static_cast<float>(i % 7));
    slots.with_slot(weights, stream.get(), [](int) {});
    stream.synchronize();
  }
  EXPECT_LE(slots.live_events(), kSlots * 10) << "events grow with the number of streams";
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  GPUFILTER_CUDA_CHECK(cudaFree(device_memory));
}

// gridDim.y holds at most 65535 blocks; every kernel must cover taller images.
TEST(TallImages, EveryKernelCoversMoreRowsThanTheGridHolds) {
  const int width = 1, height = 2200000;  // 68750 tiles and strips of 32 rows, 137500 blocks of 16
  for (const PixelFormat format : {PixelFormat{ChannelType::U8, 1}, PixelFormat{ChannelType::F32, 1}}) {
    HostImage host_src(width, height, format), expected(width, height, format), actual(width, height, format);
    testing::fill_random(host_src.view(), 21u);
    DeviceImage src(width, height, format), dst(width, height, format);
    copy_image_async(host_src.view(), src.view(), nullptr);
    // Runs `launch` into dst, poisoned against `want` first, and compares what it wrote.
    const auto written_against = [&](const ImageView& want, auto launch) {
      testing::poison_against(actual.view(), want);
      copy_image_async(actual.view(), dst.view(), nullptr);
      launch();
      copy_image_async(dst.view(), actual.view(), nullptr);
      GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
      return testing::compare(actual.view(), want);
    };
    const ExecContext checked{nullptr, true};
    for (CopyVariant variant : {CopyVariant::Scalar, CopyVariant::Vectorized}) {
      const testing::Difference diff =
          written_against(host_src.view(), [&] { copy(src.view(), dst.view(), variant, checked); });
      EXPECT_EQ(diff.max_abs, 0.0) << format.name() << " copy " << static_cast<int>(variant) << ": " << diff.describe();
    }
    const GaussianParams params{1.0, 2};
    reference::gaussian_blur(host_src.view(), expected.view(), params, Border{});
    for (FilterVariant variant : {FilterVariant::Naive, FilterVariant::Separable}) {
      const testing::Difference diff = written_against(
          expected.view(), [&] { gaussian_blur(src.view(), dst.view(), params, Border{}, variant, checked); });
      EXPECT_TRUE(diff.within(blur_tolerance(format)))
          << format.name() << " blur " << static_cast<int>(variant) << ": " << diff.describe();
    }
    reference::median_filter(host_src.view(), expected.view(), MedianParams{1}, Border{});
    for (MedianVariant variant : {MedianVariant::Tiled, MedianVariant::Walk}) {
      const testing::Difference diff = written_against(
          expected.view(), [&] { median_filter(src.view(), dst.view(), MedianParams{1}, Border{}, variant, checked); });
      EXPECT_EQ(diff.max_abs, 0.0) << format.name() << " median " << to_string(variant) << ": " << diff.describe();
    }
  }
}

constexpr std::size_t kSm75 = kSm75SharedMemory, kSm86 = kSm86SharedMemory, kSm80 = kSm80SharedMemory;

TEST(SmallerGpus, TiledBlurKnowsWhenItsTileDoesNotFit) {
  const PixelFormat u8x4{ChannelType::U8, 4}, f32x4{ChannelType::F32, 4};
  {
    const SharedMemoryCap cap(kSm86);
    EXPECT_TRUE(separable_tiled_fits(u8x4, 19));
    EXPECT_FALSE(separable_tiled_fits(u8x4, 20));
    EXPECT_TRUE(separable_tiled_fits(f32x4, 16));
    EXPECT_FALSE(separable_tiled_fits(f32x4, 17));
  }
  {
    const SharedMemoryCap cap(kSm80);
    EXPECT_TRUE(separable_tiled_fits(f32x4, 27));
    EXPECT_FALSE(separable_tiled_fits(f32x4, 28));
  }
}

// Under each smaller GPU's limit, every format at every radius still blurs correctly
// through the default variant.
TEST(SmallerGpus, DefaultBlurRunsEverywhereUnderTheirLimits) {
  for (const std::size_t limit : {kSm75, kSm86, kSm80}) {
    const SharedMemoryCap cap(limit);
    for (const PixelFormat& format : all_pixel_formats())
      for (int radius : {1, 4, 8, 17, 20, 28, 32, 90, GaussianParams::kMaxRadius}) {
        const GaussianParams params{std::min(radius / 3.0, GaussianParams::kMaxSigma), radius};
        const int width = 70, height = 41;
        HostImage host_src(width, height, format), expected(width, height, format), actual(width, height, format);
        testing::fill_random(host_src.view(), static_cast<std::uint64_t>(radius));
        reference::gaussian_blur(host_src.view(), expected.view(), params, Border{});
        testing::poison_against(actual.view(), expected.view());
        DeviceImage src(width, height, format), dst(width, height, format);
        copy_image_async(host_src.view(), src.view(), nullptr);
        copy_image_async(actual.view(), dst.view(), nullptr);
        gaussian_blur(src.view(), dst.view(), params, Border{}, FilterVariant::Separable, ExecContext{nullptr, true});
        copy_image_async(dst.view(), actual.view(), nullptr);
        GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
        const testing::Difference diff = testing::compare(actual.view(), expected.view());
        EXPECT_TRUE(diff.within(blur_tolerance(format)))
            << "limit " << limit << " " << format.name() << " radius " << radius << ": " << diff.describe();
      }
  }
}

// Forcing the tiled kernel itself where it cannot fit says so instead of failing to launch.
TEST(SmallerGpus, TiledLauncherRefusesWhatDoesNotFit) {
  const SharedMemoryCap cap(kSm86);
  const PixelFormat u8x4{ChannelType::U8, 4};
  DeviceImage src(64, 64, u8x4), dst(64, 64, u8x4);
  try {
    kernels::launch_separable_tiled(src.view(), dst.view(), gaussian_spec(GaussianParams{6.0, 20}), Border{},
                                    ExecContext{nullptr, true});
    FAIL() << "a tile larger than the shared memory limit was launched";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UnsupportedFormat);
    EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpufilter::gpu_hardening_test
