// The CPU decoders' queue on the CPU, with a stand-in decode: every file is handed out
// once (to the decoders or to the caller's own takers), failures come back with their
// file, the byte budget bounds what is held, and threads beyond the steady count stop
// once the engine is ready.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gpufilter/io/cpu_decoders.hpp"

namespace gpufilter::io::cpu_decoders_test {
namespace {

CpuDecodeTuning tuning(int steady, int startup, std::uint64_t budget) {
  CpuDecodeTuning t;
  t.steady_threads = steady;
  t.startup_threads = startup;
  t.byte_budget = budget;
  return t;
}

// Takes every decoded file (releasing it) and, like the threads that feed the GPUs, files
// from the queue too, until done(); returns how often each file was seen.
std::vector<int> drain(FileQueue& files, CpuDecoders& decoders, bool also_take_files,
                       std::vector<std::size_t>* failed = nullptr) {
  std::vector<int> seen(files.size(), 0);
  while (true) {
    if (auto ready = decoders.take()) {
      ++seen[ready->index];
      if (ready->failure && failed != nullptr) failed->push_back(ready->index);
      decoders.release(ready->bytes);
      continue;
    }
    if (also_take_files) {
      if (auto index = files.take()) {
        ++seen[*index];
        continue;
      }
    }
    if (decoders.done()) break;
    if (auto ready = decoders.wait_for(std::chrono::milliseconds(2))) {
      ++seen[ready->index];
      if (ready->failure && failed != nullptr) failed->push_back(ready->index);
      decoders.release(ready->bytes);
    }
  }
  return seen;
}

TEST(CpuDecodersTest, EveryFileOnceWithFailuresNamed) {
  FileQueue files(200);
  CpuDecoders decoders(files, tuning(3, 3, 1 << 20), [](std::size_t index) -> std::uint64_t {
    if (index % 17 == 5) throw std::runtime_error("corrupt");
    return 1000;
  });
  std::vector<std::size_t> failed;
  const std::vector<int> seen = drain(files, decoders, true, &failed);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << "file " << i;
  for (const std::size_t index : failed) EXPECT_EQ(index % 17, 5u);
  EXPECT_LE(decoders.decoded(), 200);
}

TEST(CpuDecodersTest, DecodersAloneTakeEveryFile) {
  FileQueue files(64);
  CpuDecoders decoders(files, tuning(2, 4, 1 << 20), [](std::size_t) -> std::uint64_t { return 10; });
  const std::vector<int> seen = drain(files, decoders, false);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << "file " << i;
  EXPECT_EQ(decoders.decoded(), 64);
  EXPECT_EQ(decoders.decoded_before_engine(), 64);
}

// With nothing released, the decoders stop at the budget: 10 bytes a file, 35 allowed,
// so three files held (the first is always allowed, the estimate then counts each).
TEST(CpuDecodersTest, BudgetBoundsWhatIsHeld) {
  FileQueue files(50);
  std::atomic<int> calls{0};
  CpuDecoders decoders(files, tuning(4, 4, 35), [&calls](std::size_t) -> std::uint64_t {
    ++calls;
    return 10;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_LE(calls.load(), 4) << "decoded beyond the budget";
  EXPECT_GE(calls.load(), 1);
  // Released, they go on to the end.
  const std::vector<int> seen = drain(files, decoders, false);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], 1) << "file " << i;
}

// Once the engine is ready only the steady threads decode: with none steady, the
// decoders stop taking files, and the caller takes the rest.
TEST(CpuDecodersTest, StartupThreadsStopWhenTheEngineIsReady) {
  FileQueue files(100000);
  CpuDecoders decoders(files, tuning(0, 3, std::uint64_t{1} << 40), [](std::size_t) -> std::uint64_t {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    return 1;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  decoders.engine_ready();
  decoders.engine_ready();  // idempotent
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const long after_ready = decoders.decoded();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(decoders.decoded(), after_ready) << "startup threads went on after the engine was ready";
  EXPECT_GT(decoders.decoded_before_engine(), 0);
  const std::vector<int> seen = drain(files, decoders, true);
  for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 1) << "file " << i;
}

TEST(CpuDecodersTest, StopsMidwayWithoutLosingTrack) {
  FileQueue files(1000);
  {
    CpuDecoders decoders(files, tuning(2, 2, 1 << 20), [](std::size_t) -> std::uint64_t {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
      return 1;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }  // joined here, with files left in the queue
  EXPECT_FALSE(files.exhausted());
}

// The tuning's environment, cleared before and after each case.
void clear_tuning_environment() {
  for (const char* name : {"GPUFILTER_JPEG_CPU_DECODERS", "GPUFILTER_JPEG_CPU_DECODERS_STARTUP",
                           "GPUFILTER_JPEG_CPU_DECODE_MB", "GPUFILTER_JPEG_CPU_DECODE_NICE",
                           "GPUFILTER_JPEG_STARTUP_DECODE"})
    ::unsetenv(name);
}

TEST(CpuDecodeTuningTest, DefaultsAndEnvironment) {
  clear_tuning_environment();
  EXPECT_FALSE(cpu_decode_tuning(16, 0, false, std::nullopt).on());
  EXPECT_FALSE(cpu_decode_tuning(16, 1, true, std::nullopt).on());  // off unless asked (measured slower)
  ::setenv("GPUFILTER_JPEG_CPU_DECODERS", "8", 1);
  const CpuDecodeTuning engine = cpu_decode_tuning(16, 1, true, std::uint64_t{128} << 30);
  EXPECT_EQ(engine.steady_threads, 8);
  EXPECT_EQ(engine.startup_threads, 14);
  EXPECT_EQ(engine.byte_budget, std::uint64_t{4} << 30);
  EXPECT_EQ(engine.nice, 5);
  EXPECT_EQ(cpu_decode_tuning(16, 1, true, std::uint64_t{4} << 30).byte_budget, std::uint64_t{1} << 30);
  EXPECT_EQ(cpu_decode_tuning(16, 2, true, std::nullopt).startup_threads, 12) << "two cores left per GPU";
  ::setenv("GPUFILTER_JPEG_CPU_DECODERS", "0", 1);
  EXPECT_FALSE(cpu_decode_tuning(16, 1, true, std::nullopt).on());
  ::setenv("GPUFILTER_JPEG_CPU_DECODERS", "3", 1);
  ::setenv("GPUFILTER_JPEG_CPU_DECODE_MB", "256", 1);
  const CpuDecodeTuning asked = cpu_decode_tuning(2, 0, false, std::nullopt);
  EXPECT_EQ(asked.steady_threads, 3);
  EXPECT_EQ(asked.startup_threads, 3);  // never below the steady count
  EXPECT_EQ(asked.byte_budget, std::uint64_t{256} << 20);
  ::setenv("GPUFILTER_JPEG_CPU_DECODERS_STARTUP", "6", 1);
  EXPECT_EQ(cpu_decode_tuning(2, 0, false, std::nullopt).startup_threads, 6);
  clear_tuning_environment();
}

// GPUFILTER_JPEG_STARTUP_DECODE=1: decoders only while the engines start, two cores left
// per GPU, nicer; only where the JPEG files go to hardware engines.
TEST(CpuDecodeTuningTest, StartupDecodingAlone) {
  clear_tuning_environment();
  ::setenv("GPUFILTER_JPEG_STARTUP_DECODE", "1", 1);
  const CpuDecodeTuning one_gpu = cpu_decode_tuning(16, 1, true, std::nullopt);
  EXPECT_TRUE(one_gpu.on());
  EXPECT_EQ(one_gpu.steady_threads, 0) << "they stop once the engines are ready";
  EXPECT_EQ(one_gpu.startup_threads, 14);
  EXPECT_EQ(one_gpu.nice, 10);
  EXPECT_EQ(cpu_decode_tuning(16, 2, true, std::nullopt).startup_threads, 12);
  EXPECT_EQ(cpu_decode_tuning(4, 2, true, std::nullopt).startup_threads, 1) << "at least one";
  EXPECT_FALSE(cpu_decode_tuning(16, 1, false, std::nullopt).on()) << "no engine: nothing to wait for";
  ::setenv("GPUFILTER_JPEG_CPU_DECODE_NICE", "3", 1);
  EXPECT_EQ(cpu_decode_tuning(16, 1, true, std::nullopt).nice, 3);
  ::setenv("GPUFILTER_JPEG_CPU_DECODERS_STARTUP", "0", 1);
  EXPECT_FALSE(cpu_decode_tuning(16, 1, true, std::nullopt).on()) << "0: no start-up decoders";
  ::setenv("GPUFILTER_JPEG_CPU_DECODERS_STARTUP", "5", 1);
  EXPECT_EQ(cpu_decode_tuning(16, 1, true, std::nullopt).startup_threads, 5);
  ::setenv("GPUFILTER_JPEG_CPU_DECODERS", "0", 1);
  EXPECT_FALSE(cpu_decode_tuning(16, 1, true, std::nullopt).on()) << "0 steady threads: off altogether";
  clear_tuning_environment();

  // The start-up count on its own turns start-up decoding on, without the switch.
  ::setenv("GPUFILTER_JPEG_STARTUP_DECODE", "0", 1);
  EXPECT_FALSE(cpu_decode_tuning(16, 1, true, std::nullopt).on());
  ::setenv("GPUFILTER_JPEG_CPU_DECODERS_STARTUP", "4", 1);
  const CpuDecodeTuning startup = cpu_decode_tuning(16, 1, true, std::nullopt);
  EXPECT_EQ(startup.steady_threads, 0);
  EXPECT_EQ(startup.startup_threads, 4);
  EXPECT_EQ(startup.nice, 10);
  clear_tuning_environment();
}

// Files for engines still starting: each taken file counted once, never more than the
// cap, however often the threads ask.
TEST(StartingEngineAllowanceTest, CountsFilesTakenNotAsks) {
  FileQueue files(100);
  StartingEngineAllowance allowance(16);
  std::atomic<int> taken{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int ask = 0; ask < 50; ++ask)
        if (allowance.take(files)) ++taken;
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(taken.load(), 16);
  EXPECT_EQ(allowance.taken(), 16u);
  EXPECT_EQ(files.take(), std::optional<std::size_t>(16)) << "the queue went on from the last file taken";

  FileQueue short_queue(3);
  StartingEngineAllowance roomy(8);
  for (int ask = 0; ask < 10; ++ask) roomy.take(short_queue);
  EXPECT_EQ(roomy.taken(), 3u) << "an empty queue's asks are not counted";
}

TEST(SteadyRateTest, RateBetweenPercentiles) {
  EXPECT_FALSE(steady_rate({1, 2, 3}).has_value());
  // 101 completions, one every 10 ms from 1000 ms, shuffled: 80 files in 0.8 s.
  std::vector<double> times;
  for (int i = 0; i <= 100; ++i) times.push_back(1000.0 + 10.0 * i);
  std::reverse(times.begin(), times.end());
  const auto rate = steady_rate(times);
  ASSERT_TRUE(rate.has_value());
  EXPECT_EQ(rate->files, 80u);
  EXPECT_NEAR(rate->seconds, 0.8, 1e-9);
  EXPECT_NEAR(rate->files_per_s, 100.0, 1e-6);
  EXPECT_FALSE(steady_rate(std::vector<double>(20, 5.0)).has_value()) << "no time between";
  // From 1500 ms (file 50 done) to the 90th percentile (file 90 at 1900 ms): 40 files in 0.4 s.
  const auto after = rate_after(times, 1500.0);
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->files, 40u);
  EXPECT_NEAR(after->files_per_s, 100.0, 1e-6);
  EXPECT_FALSE(rate_after(times, 1950.0).has_value()) << "ready after the 90th percentile";
}

}  // namespace
}  // namespace gpufilter::io::cpu_decoders_test
