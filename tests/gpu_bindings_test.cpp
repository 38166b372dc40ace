// The library's GPU side (libgpufilter, lib/src/*/*_gpu.cpp), on the CPU: every op has it bound
// (GPUFILTER_BIND_GPU), and the entry points refuse an unknown variant, mismatched views
// or a parameter out of range before they launch anything, so no GPU is needed to see
// it. The CPU tests link the same ops without it (Registry.TheHostOnlyCoreHasNoGpuSide).
#include <gtest/gtest.h>

#include <string>

#include "gpufilter/gpufilter.hpp"
#include "invalid_argument.hpp"

namespace gpufilter::gpu_bindings_test {
namespace {

using testing::invalid_argument_message;

TEST(GpuBindings, EveryOpRunsOnTheGpu) {
  for (const Operation& op : operations()) {
    SCOPED_TRACE(op.name);
    if (op.produces_image()) {
      EXPECT_TRUE(op.run_gpu);
      EXPECT_FALSE(op.run_gpu_data);
    } else {
      EXPECT_TRUE(op.run_gpu_data);
      EXPECT_FALSE(op.run_gpu);
    }
  }
}

TEST(GpuBindings, UnknownVariantNamesAreErrorsBeforeAnyLaunch) {
  for (const Operation& op : operations()) {
    SCOPED_TRACE(op.name);
    const std::string message = invalid_argument_message([&] {
      if (op.produces_image())
        op.run_gpu(ImageView{}, ImageView{}, op.resolve(op.test_params), Border{}, "no-such-variant", ExecContext{});
      else
        op.run_gpu_data(ImageView{}, nullptr, op.resolve(op.test_params), "no-such-variant", ExecContext{});
    });
    EXPECT_NE(message.find("no-such-variant"), std::string::npos) << message;
  }
}

// Only the filters pick among kernels by the input (applied_variant); each picks one of
// its own variants. The pick reads the GPU's limits (shared memory for the tiles).
TEST(GpuBindings, AppliedVariantsAreTheOpsOwn) {
  if (!has_device()) GTEST_SKIP() << "which kernel a variant applies depends on the GPU's limits";
  for (const Operation& op : operations()) {
    SCOPED_TRACE(op.name);
    if (!op.applied_variant) continue;
    EXPECT_EQ(op.group, OperationGroup::Filters);
    const ParamValues params = op.resolve(op.test_params);
    for (const std::string& variant : op.variants)
      EXPECT_TRUE(op.has_variant(op.applied_variant_for(op.formats.front(), params, variant))) << variant;
  }
}

TEST(GpuOps, MismatchedViewsAreRefusedBeforeAnyLaunch) {
  unsigned char a[64] = {}, b[64] = {};
  const ImageView src{a, 4, 4, 16, PixelFormat{ChannelType::U8, 4}};
  const ImageView small{b, 3, 4, 16, PixelFormat{ChannelType::U8, 4}};
  try {
    gaussian_blur(src, small, GaussianParams{});
    FAIL() << "mismatched sizes were accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("4x4"), std::string::npos) << e.what();
  }
  EXPECT_THROW(gaussian_blur(src, src, GaussianParams{}), Error);
  EXPECT_THROW(gaussian_blur(src, small, GaussianParams{-1.0, 0}), Error);
}

TEST(GpuOps, MedianRefusesItsRadiusBeforeTheViews) {
  const std::string message =
      invalid_argument_message([] { median_filter(ImageView{}, ImageView{}, MedianParams{4}); });
  EXPECT_NE(message.find("radius"), std::string::npos) << message;
}

}  // namespace
}  // namespace gpufilter::gpu_bindings_test
