// Host threads sharing the library: each thread with its own stream runs ops whose
// kernels need different launch settings (dynamic shared memory, __constant__ mask
// slots, plans) at the same time, and every result must equal the reference. A
// per-function setting that one thread lowers while another launches (a kernel's
// shared-memory opt-in) fails a launch or a comparison here.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gpufilter/gpufilter.hpp"
#include "gpufilter/testing.hpp"

namespace gpufilter::gpu_threads_test {
namespace {

constexpr int kThreads = 8;

// What the threads found: the first few failures, for the main thread to report (the
// threads never assert themselves, so a failure cannot end one thread early and hide
// the others' launches).
class Failures {
 public:
  void add(const std::string& what) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (messages_.size() < 8) messages_.push_back(what);
    ++count_;
  }
  void expect_none() const {
    EXPECT_EQ(count_, 0);
    for (const std::string& m : messages_) ADD_FAILURE() << m;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> messages_;
  int count_ = 0;
};

template <class Body>
void run_threads(Failures& failures, Body body) {
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&failures, &body, t] {
      try {
        body(t);
      } catch (const std::exception& e) {
        failures.add("thread " + std::to_string(t) + " threw: " + e.what());
      }
    });
  for (std::thread& thread : threads) thread.join();
}

// One image op on the GPU, on this thread's stream, against its CPU reference.
void check_one(const Operation& op, PixelFormat format, int width, int height, const ParamValues& given,
               const Border& border, std::uint64_t seed, Stream& stream, Failures& failures) {
  const ParamValues values = op.resolve(given);
  const ImageShape out_shape = op.output_shape_for(ImageShape{width, height, format}, values);
  HostImage host_src(width, height, format), expected(out_shape.width, out_shape.height, out_shape.format),
      actual(out_shape.width, out_shape.height, out_shape.format);
  testing::fill_random(host_src.view(), seed);
  op.run_reference(host_src.view(), expected.view(), values, border);
  testing::poison_against(actual.view(), expected.view());
  DeviceImage src(width, height, format), dst(out_shape.width, out_shape.height, out_shape.format);
  copy_image_async(host_src.view(), src.view(), stream.get());
  copy_image_async(actual.view(), dst.view(), stream.get());
  op.run_gpu(src.view(), dst.view(), values, border, op.default_variant, ExecContext{stream.get(), true});
  copy_image_async(dst.view(), actual.view(), stream.get());
  stream.synchronize();
  const testing::Difference diff = testing::compare(actual.view(), expected.view());
  const Tolerance tolerance = op.tolerance_for(format, op.default_variant, values);
  if (!diff.within(tolerance))
    failures.add(op.name + " " + format.name() + " " + std::to_string(width) + "x" + std::to_string(height) + ": " +
                 diff.describe());
}

// The case the defect was found with: Gaussians of sigmas 0.4-8.5 (radius from sigma) on
// u8x4, so the tiled kernels' shared-memory needs differ from launch to launch.
TEST(HostThreads, BlursOfDifferentSigmasAgreeWithTheReference) {
  const Operation& blur = *find_operation("blur");
  Failures failures;
  run_threads(failures, [&](int t) {
    std::mt19937 random(1000u + static_cast<unsigned>(t));
    std::uniform_real_distribution<double> sigma(0.4, 8.5);
    Stream stream;
    for (int round = 0; round < 6; ++round)
      check_one(blur, PixelFormat{ChannelType::U8, 4}, 300, 200, ParamValues{{"sigma", sigma(random)}}, Border{},
                random(), stream, failures);
  });
  failures.expect_none();
}

// Image ops drawn at random with their defaults or their test parameters (a blur's sigma
// drawn too), in random formats, borders and odd sizes, eight threads at once.
TEST(HostThreads, RandomOpsAndParametersAgreeWithTheReference) {
  std::vector<const Operation*> ops;
  for (const Operation& op : operations())
    if (op.produces_image() && op.run_gpu && op.run_reference) ops.push_back(&op);
  ASSERT_FALSE(ops.empty());
  const BorderMode modes[] = {BorderMode::Replicate, BorderMode::Reflect101, BorderMode::Constant};
  Failures failures;
  std::atomic<int> ran{0};
  run_threads(failures, [&](int t) {
    std::mt19937 random(2000u + static_cast<unsigned>(t));
    Stream stream;
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
        check_one(op, format, width, height, given, border, random(), stream, failures);
        ++ran;
      } catch (const Error& e) {
        // Parameters that do not fit this input (a crop larger than the image) are refused
        // before any launch; anything else is a failure.
        if (e.code() != ErrorCode::InvalidArgument) throw;
      }
    }
  });
  failures.expect_none();
  EXPECT_GT(ran.load(), kThreads * 5) << "too few cases ran";
}

}  // namespace
}  // namespace gpufilter::gpu_threads_test
