// The filter ops keep the specs they made from recent parameter sets (filter_operations.cpp):
// every GPU run must still follow its own parameters, in any order and past the number
// kept, and a mask read from a file must follow the file as it is at each call.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter::gpu_filter_specs_test {
namespace {

constexpr int kWidth = 97, kHeight = 61;

// One GPU run of `op` on `input` against the reference with the same parameters, the
// output poisoned first.
testing::Difference gpu_vs_reference(const Operation& op, const ParamValues& given, const HostImage& input) {
  const ParamValues params = op.resolve(given);
  const PixelFormat format = input.view().format;
  HostImage expected(kWidth, kHeight, format);
  op.run_reference(input.view(), expected.view(), params, Border{});
  HostImage got(kWidth, kHeight, format);
  testing::poison_against(got.view(), expected.view());
  DeviceImage src(kWidth, kHeight, format), dst(kWidth, kHeight, format);
  copy_image_async(input.view(), src.view(), nullptr);
  copy_image_async(got.view(), dst.view(), nullptr);
  op.run_gpu(src.view(), dst.view(), params, Border{}, "auto", ExecContext{nullptr, true});
  copy_image_async(dst.view(), got.view(), nullptr);
  GPUFILTER_CUDA_CHECK(cudaDeviceSynchronize());
  return testing::compare(got.view(), expected.view());
}

TEST(FilterSpecs, EveryRunFollowsItsOwnParameters) {
  const PixelFormat format{ChannelType::U8, 4};
  HostImage input(kWidth, kHeight, format);
  testing::fill_random(input.view(), 41u);
  const Operation& blur = *find_operation("blur");
  // More parameter sets than the ops keep, then the first ones again; the same sigma
  // with another alpha mode or radius is another spec.
  std::vector<ParamValues> runs;
  for (double sigma : {1.0, 2.0, 3.0, 5.0, 8.0, 12.0, 20.0, 30.0, 1.5, 2.5})
    runs.push_back({{"sigma", sigma}, {"alpha", "separate"}});
  runs.push_back({{"sigma", 2.0}, {"alpha", "premultiply"}});
  runs.push_back({{"sigma", 2.0}, {"radius", 2}, {"alpha", "separate"}});
  runs.push_back({{"sigma", 1.0}, {"alpha", "separate"}});
  runs.push_back({{"sigma", 30.0}, {"alpha", "separate"}});
  for (int round = 0; round < 2; ++round)
    for (const ParamValues& run : runs) {
      const testing::Difference diff = gpu_vs_reference(blur, run, input);
      EXPECT_TRUE(diff.within(blur.tolerance_for(format, "auto")))
          << "sigma " << run.number("sigma") << ", alpha " << run.text("alpha") << ", round " << round << ": "
          << diff.describe();
    }
}

TEST(FilterSpecs, AMaskFileIsReadAtEveryCall) {
  const PixelFormat format{ChannelType::U8, 1};
  HostImage input(kWidth, kHeight, format);
  testing::fill_random(input.view(), 43u);
  const Operation& convolve = *find_operation("convolve");
  const std::string path = ::testing::TempDir() + "gpufilter_mask_" + std::to_string(::getpid()) + ".txt";
  for (const char* mask : {"0 0 0\n0 1 0\n0 0 0\n", "0 0 0\n1 0 0\n0 0 0\n", "1 2 1\n2 4 2\n1 2 1\n"}) {
    {
      std::ofstream file(path, std::ios::trunc);
      file << mask;
    }
    const testing::Difference diff =
        gpu_vs_reference(convolve, {{"kernel-file", path}, {"normalize", 1.0}, {"alpha", "separate"}}, input);
    EXPECT_TRUE(diff.within(convolve.tolerance_for(format, "auto"))) << "mask " << mask << ": " << diff.describe();
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpufilter::gpu_filter_specs_test
