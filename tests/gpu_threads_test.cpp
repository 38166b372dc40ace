// Host threads sharing the library: each thread with its own stream runs ops whose
// kernels need different launch settings (dynamic shared memory, __constant__ mask
// slots, plans) at the same time, and every result must equal the reference. A
// per-function setting that one thread lowers while another launches (a kernel's
// shared-memory opt-in) fails a launch or a comparison here.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"
#include "conformance_check.hpp"

namespace gpufilter::gpu_threads_test {
namespace {

constexpr int kThreads = 8;

// Runs body(t) on kThreads threads at once. GoogleTest's assertions are thread-safe where
// pthreads are, so each thread reports its own failures; an exception fails the test too.
template <class Body>
void run_threads(Body body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&body, t] {
      try {
        body(t);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "thread " << t << " threw: " << e.what();
      }
    });
  for (std::thread& thread : threads) thread.join();
}

// One image op on the GPU, on a stream of this thread's, against its CPU reference: the
// conformance tests' check (output poisoned, guard pixels untouched, within tolerance).
void check_one(const Operation& op, PixelFormat format, int width, int height, const ParamValues& given,
               const Border& border, std::uint64_t seed) {
  SCOPED_TRACE(op.name + " " + format.name() + " " + std::to_string(width) + "x" + std::to_string(height));
  const ParamValues values = op.resolve(given);
  const ImageShape out_shape = op.output_shape_for(ImageShape{width, height, format}, values);
  HostImage host_src(width, height, format), expected(out_shape.width, out_shape.height, out_shape.format);
  testing::fill_random(host_src.view(), seed);
  op.run_reference(host_src.view(), expected.view(), values, border);
  testing::check_image_run(host_src.view(), testing::CaseSize{width, height}, /*subview=*/false, expected.view(),
                           op.tolerance_for(format, op.default_variant, values),
                           [&](const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
                             op.run_gpu(src, dst, values, border, op.default_variant, ctx);
                           });
}

// The case the defect was found with: Gaussians of sigmas 0.4-8.5 (radius from sigma) on
// u8x4, so the tiled kernels' shared-memory needs differ from launch to launch.
TEST(HostThreads, BlursOfDifferentSigmasAgreeWithTheReference) {
  const Operation& blur = *find_operation("blur");
  run_threads([&](int t) {
    std::mt19937 random(1000u + static_cast<unsigned>(t));
    std::uniform_real_distribution<double> sigma(0.4, 8.5);
    for (int round = 0; round < 6; ++round)
      check_one(blur, PixelFormat{ChannelType::U8, 4}, 300, 200, ParamValues{{"sigma", sigma(random)}}, Border{},
                random());
  });
}

// Image ops drawn at random with their defaults or their test parameters (a blur's sigma
// drawn too), in random formats, borders and odd sizes, eight threads at once.
TEST(HostThreads, RandomOpsAndParametersAgreeWithTheReference) {
  std::vector<const Operation*> ops;
  for (const Operation& op : operations())
    if (op.produces_image() && op.run_gpu && op.run_reference) ops.push_back(&op);
  ASSERT_FALSE(ops.empty());
  const BorderMode modes[] = {BorderMode::Replicate, BorderMode::Reflect101, BorderMode::Constant};
  std::atomic<int> ran{0};
  run_threads([&](int t) {
    std::mt19937 random(2000u + static_cast<unsigned>(t));
    for (int round = 0; round < 10; ++round) {
      const Operation& op = *ops[random() % ops.size()];
      const PixelFormat format = op.formats[random() % op.formats.size()];
      ParamValues given = (random() % 2 == 0) ? ParamValues{} : op.test_params;
      if (op.find_param("sigma") != nullptr && op.find_param("sigma")->max >= 6.0 && random() % 2 == 0) {
        given["sigma"] = 0.4 + (random() % 800) / 100.0;  // 0.4 .. 8.39
        given.erase("radius");
      }
      Border border;
      border.mode = modes[random() % 3];
      const int width = 17 + static_cast<int>(random() % 150), height = 9 + static_cast<int>(random() % 90);
      try {
        check_one(op, format, width, height, given, border, random());
        ++ran;
      } catch (const Error& e) {
        // Parameters that do not fit this input (a crop larger than the image) are refused
        // before any launch; anything else is a failure.
        if (e.code() != ErrorCode::InvalidArgument) throw;
      }
    }
  });
  EXPECT_GT(ran.load(), kThreads * 5) << "too few cases ran";
}

}  // namespace
}  // namespace gpufilter::gpu_threads_test
