// Every registered variant has test parameters under which it runs its own kernel on at
// least one of its op's formats (Operation::test_params_for, applied_variant_for). The GPU
// conformance suite makes its cases from exactly these, and reports a variant it cannot
// reach only on a machine with a GPU; this test says it on every machine, so a variant
// added without test parameters it runs (an integer kernel under fractional weights) is
// caught where the change is made. Variants whose choice asks the device (its shared
// memory, its compute capability) are left to the GPU suite where there is none.
#include <gtest/gtest.h>

#include <cstdio>
#include <exception>
#include <string>

#include "gpufilter/gpufilter.hpp"

namespace gpufilter::variant_test_params_test {
namespace {

TEST(VariantTestParams, EveryVariantRunsItselfOnSomeFormat) {
  int judged = 0, left_to_the_gpu = 0;
  for (const Operation& op : operations())
    for (const std::string& variant : op.variants) {
      if (variant == "auto") continue;
      const ParamValues values = op.resolve(op.test_params_for(variant));
      bool runs_itself = false;
      std::string applied;
      bool asks_the_device = false;
      for (const PixelFormat& format : op.formats) {
        try {
          applied = op.applied_variant_for(format, values, variant);
        } catch (const std::exception&) {
          asks_the_device = !has_device();  // no device to ask: the GPU suite judges it
          if (!asks_the_device) throw;
          break;
        }
        if (applied == variant) {
          runs_itself = true;
          break;
        }
      }
      if (asks_the_device) {
        ++left_to_the_gpu;
        continue;
      }
      ++judged;
      EXPECT_TRUE(runs_itself) << op.name << "'s variant " << variant
                               << " falls back on every format with its test parameters (last: " << applied
                               << "): give it variant_test_params it runs";
    }
  // Most variants choose without asking the device; unless most are judged here, this
  // test would pass on a machine without a GPU whatever the parameters.
  EXPECT_GT(judged, left_to_the_gpu);
  std::printf("%d variants judged, %d left to the GPU suite\n", judged, left_to_the_gpu);
}

}  // namespace
}  // namespace gpufilter::variant_test_params_test
