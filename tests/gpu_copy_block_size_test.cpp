// The lab's chunked copy at every block size gpufilter-memory-bench times (CopyShape::threads):
// exact on views whose rows have a head and a tail, nothing written outside them.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <string>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "lab/copy/copy_chunks_launch.hpp"

namespace gpufilter::gpu_copy_block_size_test {
namespace {

lab::CopyShape shape_named(const std::string& name, int threads) {
  lab::CopyShape shape;
  if (name == "int") shape.bytes = 4;
  if (name == "unroll4") shape.unroll = 4;
  if (name == "grid_stride") shape.grid_stride = true;
  if (name == "ldg") shape.load = lab::CopyLoad::ReadOnly;
  shape.threads = threads;
  return shape;
}

TEST(CopyKernels, EveryBlockSizeCopiesExactly) {
  const PixelFormat format{ChannelType::U8, 1};
  constexpr int kWidth = 3001, kHeight = 5, kX = 5, kMargin = 32;  // head 11 bytes, tail 6
  HostImage host_src(kWidth + kMargin, kHeight, format), host_dst(kWidth + kMargin, kHeight, format);
  HostImage poisoned(kWidth + kMargin, kHeight, format);
  testing::fill_random(host_src.view(), 5u);
  testing::fill_random(poisoned.view(), 6u);
  DeviceImage src(kWidth + kMargin, kHeight, format), dst(kWidth + kMargin, kHeight, format);
  copy_image_async(host_src.view(), src.view(), nullptr);
  for (const char* name : {"int", "int4", "unroll4", "grid_stride", "ldg"})
    for (int threads : {32, 64, 128, 256, 512, 1024}) {
      copy_image_async(poisoned.view(), dst.view(), nullptr);
      ASSERT_TRUE(lab::launch_copy_chunks(src.view().subview(kX, 0, kWidth, kHeight),
                                          dst.view().subview(kX, 0, kWidth, kHeight), shape_named(name, threads),
                                          ExecContext{nullptr, true}));
      copy_image_async(dst.view(), host_dst.view(), nullptr);
      GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
      for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth + kMargin; ++x) {
          const bool inside = x >= kX && x < kX + kWidth;
          const unsigned char expected = (inside ? host_src : poisoned).view().row<unsigned char>(y)[x];
          ASSERT_EQ(host_dst.view().row<unsigned char>(y)[x], expected)
              << name << " with " << threads << " threads: byte (" << x << ", " << y << ")"
              << (inside ? "" : " outside the view");
        }
    }
}

TEST(CopyKernels, BadBlockSizesAreErrors) {
  const PixelFormat format{ChannelType::U8, 4};
  DeviceImage src(64, 2, format), dst(64, 2, format);
  for (int threads : {0, 16, 100, 2048})
    EXPECT_THROW(lab::launch_copy_chunks(src.view(), dst.view(), shape_named("int4", threads), ExecContext{}), Error)
        << threads << " threads";
}

}  // namespace
}  // namespace gpufilter::gpu_copy_block_size_test
