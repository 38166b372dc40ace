// The batched JPEG decoder's gathering, on the CPU: a stand-in engine "decodes" a file by
// writing its first byte into its image (host memory here), so the tests see which file
// went where, in which calls, and what came back declined.
#include <gtest/gtest.h>
#if defined(__linux__)
#include <pthread.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpufilter/io/jpeg_batch_decoder.hpp"

namespace gpufilter::io::jpeg_batch_decoder_test {
namespace {

struct EngineLog {
  std::mutex mutex;
  std::vector<std::size_t> call_sizes;
  std::vector<int> call_channels;
};

// Accepts a file whose second byte is not 'n'; a call fails when any file's second byte
// is 'f'.
class FakeEngine final : public JpegBatchEngine {
 public:
  explicit FakeEngine(EngineLog& log) : log_(log) {}
  bool accepts(const JpegBytes& file, const ImageView& /*into*/) override { return file.size < 2 || file.data[1] != 'n'; }
  bool decode(const std::vector<JpegBytes>& files, const std::vector<ImageView>& into) override {
    {
      const std::lock_guard<std::mutex> lock(log_.mutex);
      log_.call_sizes.push_back(files.size());
      log_.call_channels.push_back(into.front().format.channels);
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
      EXPECT_EQ(into[i].format.channels, into.front().format.channels) << "one pixel format per call";
      if (files[i].size > 1 && files[i].data[1] == 'f') return false;
    }
    for (std::size_t i = 0; i < files.size(); ++i) *static_cast<unsigned char*>(into[i].data) = files[i].data[0];
    return true;
  }

 private:
  EngineLog& log_;
};

struct Job {
  std::string bytes;
  unsigned char image = 0;
  int channels = 3;
  BatchDecodeResult result;
};

ImageView view_of(Job& job) {
  ImageView view;
  view.data = &job.image;
  view.width = 1;
  view.height = 1;
  view.pitch = static_cast<std::size_t>(job.channels);
  view.format = PixelFormat{ChannelType::U8, job.channels};
  return view;
}

// Every job decoded from a thread of its own, all at once.
void decode_all(JpegBatchDecoder& decoder, std::vector<Job>& jobs) {
  std::vector<std::thread> threads;
  for (Job& job : jobs) {
    threads.emplace_back([&decoder, &job] {
      const JpegBytes file{reinterpret_cast<const unsigned char*>(job.bytes.data()), job.bytes.size()};
      job.result = decoder.decode(file, view_of(job));
    });
  }
  for (std::thread& thread : threads) thread.join();
}

JpegBatchDecoder::EngineFactory fake(EngineLog& log) {
  return [&log] { return std::make_unique<FakeEngine>(log); };
}

TEST(JpegBatchDecoder, GathersFilesIntoCallsOfAtMostTheBatchSize) {
  EngineLog log;
  std::vector<Job> jobs(10);
  for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].bytes = std::string(1, static_cast<char>('a' + i)) + "ok";
  {
    // A long wait: the calls are full, but for the last.
    JpegBatchDecoder decoder(fake(log), JpegBatchTuning{4, 300.0}, "test");
    decode_all(decoder, jobs);
    EXPECT_NE(decoder.summary().find("10 of 10 files"), std::string::npos) << decoder.summary();
  }
  std::size_t total = 0;
  std::size_t largest = 0;
  for (const std::size_t size : log.call_sizes) {
    EXPECT_LE(size, 4u);
    total += size;
    largest = std::max(largest, size);
  }
  EXPECT_EQ(total, jobs.size());
  EXPECT_GT(largest, 1u) << "files that arrive together share a call";
  for (const Job& job : jobs) {
    EXPECT_TRUE(job.result.decoded);
    EXPECT_EQ(job.image, static_cast<unsigned char>(job.bytes[0])) << "each file lands in its own image";
    EXPECT_GE(job.result.waited_ms, 0.0);
    EXPECT_GE(job.result.decode_ms, 0.0);
  }
}

TEST(JpegBatchDecoder, ALoneFileGoesAfterTheWait) {
  EngineLog log;
  JpegBatchDecoder decoder(fake(log), JpegBatchTuning{16, 5.0}, "test");
  std::vector<Job> jobs(1);
  jobs[0].bytes = "zok";
  decode_all(decoder, jobs);
  EXPECT_TRUE(jobs[0].result.decoded);
  EXPECT_EQ(jobs[0].image, 'z');
}

TEST(JpegBatchDecoder, DeclinedAndFailedFilesComeBackUndecoded) {
  EngineLog log;
  std::vector<Job> jobs(6);
  jobs[0].bytes = "anx";  // declined by accepts()
  jobs[1].bytes = "bok";
  jobs[2].bytes = "cok";
  jobs[3].bytes = "dnx";
  jobs[4].bytes = "eok";
  jobs[5].bytes = "fok";
  JpegBatchDecoder decoder(fake(log), JpegBatchTuning{8, 300.0}, "test");
  decode_all(decoder, jobs);
  for (const Job& job : jobs) {
    const bool declined = job.bytes[1] == 'n';
    EXPECT_EQ(job.result.decoded, !declined) << job.bytes;
    if (!declined) {
      EXPECT_EQ(job.image, static_cast<unsigned char>(job.bytes[0]));
    }
  }
  // A call that fails is tried again in halves: only the file at fault comes back
  // undecoded, and the next call starts afresh.
  std::vector<Job> failing(5);
  failing[0].bytes = "gok";
  failing[1].bytes = "hfx";
  failing[2].bytes = "iok";
  failing[3].bytes = "kok";
  failing[4].bytes = "lok";
  decode_all(decoder, failing);
  for (const Job& job : failing) EXPECT_EQ(job.result.decoded, job.bytes[1] != 'f') << job.bytes;
  std::vector<Job> after(1);
  after[0].bytes = "jok";
  decode_all(decoder, after);
  EXPECT_TRUE(after[0].result.decoded);
  const std::string summary = decoder.summary();
  EXPECT_NE(summary.find("failed"), std::string::npos) << summary;
  for (const Job& job : failing) {
    if (job.result.decoded) {
      EXPECT_EQ(job.image, static_cast<unsigned char>(job.bytes[0])) << job.bytes;
    }
  }
  std::size_t decoded_in_calls = 0;
  for (const std::size_t size : log.call_sizes) decoded_in_calls += size;
  // 4 + 1 files in the calls that did not fail; each halving level of the 5 failing
  // files (at most 1 + 3 levels) decodes each of them at most once.
  EXPECT_LE(decoded_in_calls, 4u + 1u + 5u * 4u);
}

TEST(JpegBatchDecoder, OneCallPerPixelFormat) {
  EngineLog log;
  std::vector<Job> jobs(6);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].bytes = std::string(1, static_cast<char>('a' + i)) + "ok";
    jobs[i].channels = i % 2 == 0 ? 3 : 1;
  }
  {
    JpegBatchDecoder decoder(fake(log), JpegBatchTuning{16, 300.0}, "test");
    decode_all(decoder, jobs);
  }
  for (const Job& job : jobs) EXPECT_TRUE(job.result.decoded);
  ASSERT_EQ(log.call_sizes.size(), log.call_channels.size());
  EXPECT_GE(log.call_sizes.size(), 2u) << "gray and colour never share a call";
}

// The engine's start, phase by phase, in --timing's line for its GPU.
TEST(JpegBatchDecoder, SummaryShowsTheEngineStartPhases) {
  class TimedEngine final : public JpegBatchEngine {
   public:
    bool accepts(const JpegBytes& /*file*/, const ImageView& /*into*/) override { return true; }
    bool decode(const std::vector<JpegBytes>& /*files*/, const std::vector<ImageView>& /*into*/) override {
      return true;
    }
    std::string start_phases() const override { return "CUDA context 400 ms, nvJPEG handle 300 ms"; }
  };
  JpegBatchDecoder decoder([] { return std::make_unique<TimedEngine>(); }, JpegBatchTuning{4, 1.0}, "GPU 1");
  std::vector<Job> jobs(2);
  for (Job& job : jobs) job.bytes = "aok";
  decode_all(decoder, jobs);
  const std::string summary = decoder.summary();
  EXPECT_NE(summary.find("engine ready after "), std::string::npos) << summary;
  EXPECT_NE(summary.find(" ms (CUDA context 400 ms, nvJPEG handle 300 ms)"), std::string::npos) << summary;
  // An engine that does not time its start (the fake one) adds nothing.
  EngineLog log;
  JpegBatchDecoder plain(fake(log), JpegBatchTuning{4, 1.0}, "GPU 2");
  decode_all(plain, jobs);
  EXPECT_EQ(plain.summary().find(" ms ("), std::string::npos) << plain.summary();
}

TEST(JpegBatchDecoder, WithoutAnEngineEveryFileIsDeclined) {
  JpegBatchDecoder decoder([] { return std::unique_ptr<JpegBatchEngine>(); }, JpegBatchTuning{16, 1000.0}, "GPU 7");
  std::vector<Job> jobs(5);
  for (Job& job : jobs) job.bytes = "aok";
  decode_all(decoder, jobs);
  for (const Job& job : jobs) EXPECT_FALSE(job.result.decoded);
  EXPECT_NE(decoder.summary().find("no hardware JPEG engine"), std::string::npos) << decoder.summary();
  EXPECT_NE(decoder.summary().find("GPU 7"), std::string::npos) << decoder.summary();
  // An engine that throws while it starts counts as none.
  JpegBatchDecoder throwing([]() -> std::unique_ptr<JpegBatchEngine> { throw std::runtime_error("no engine"); },
                            JpegBatchTuning{16, 1.0}, "GPU 8");
  std::vector<Job> more(2);
  for (Job& job : more) job.bytes = "bok";
  decode_all(throwing, more);
  for (const Job& job : more) EXPECT_FALSE(job.result.decoded);
}

TEST(JpegBatchDecoder, TuningFromTheEnvironment) {
  const JpegBatchTuning defaults;
  EXPECT_GT(defaults.max_batch, 1);
  ::setenv("GPUFILTER_JPEG_BATCH", "0", 1);
  ::setenv("GPUFILTER_JPEG_BATCH_WAIT_MS", "2.5", 1);
  EXPECT_EQ(jpeg_batch_tuning().max_batch, 0) << "0 forces the per-file path";
  EXPECT_EQ(jpeg_batch_tuning().max_wait_ms, 2.5);
  ::setenv("GPUFILTER_JPEG_BATCH", "32", 1);
  EXPECT_EQ(jpeg_batch_tuning().max_batch, 32);
  for (const char* bad : {"abc", "-1", "65", "8x", ""}) {
    ::setenv("GPUFILTER_JPEG_BATCH", bad, 1);
    EXPECT_EQ(jpeg_batch_tuning().max_batch, defaults.max_batch) << bad;
  }
  EXPECT_FALSE(jpeg_batch_tuning().per_file_while_starting);
  ::setenv("GPUFILTER_JPEG_BATCH_WHILE_STARTING", "1", 1);
  EXPECT_TRUE(jpeg_batch_tuning().per_file_while_starting);
  ::unsetenv("GPUFILTER_JPEG_BATCH");
  ::unsetenv("GPUFILTER_JPEG_BATCH_WAIT_MS");
  ::unsetenv("GPUFILTER_JPEG_BATCH_WHILE_STARTING");
  EXPECT_EQ(jpeg_batch_tuning().max_batch, defaults.max_batch);
  EXPECT_EQ(jpeg_batch_tuning().max_wait_ms, defaults.max_wait_ms);
}

TEST(JpegBatchDecoder, FilesWhileTheEngineStartsWaitOrGoFileByFile) {
  for (const bool per_file : {false, true}) {
    SCOPED_TRACE(per_file);
    EngineLog log;
    std::promise<void> release;  // the engine starts once released
    std::shared_future<void> released = release.get_future().share();
    JpegBatchTuning tuning{16, 1.0};
    tuning.per_file_while_starting = per_file;
    JpegBatchDecoder decoder(
        [&log, released] {
          released.wait();
          return std::make_unique<FakeEngine>(log);
        },
        tuning, "test");
    std::vector<Job> jobs(3);
    for (Job& job : jobs) job.bytes = "aok";
    if (per_file) {
      decode_all(decoder, jobs);  // returns while the engine is still starting
      release.set_value();
    } else {
      std::thread releaser([&release] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        release.set_value();
      });
      decode_all(decoder, jobs);  // waits for the engine
      releaser.join();
    }
    for (const Job& job : jobs) EXPECT_EQ(job.result.decoded, !per_file);
  }
}

#if defined(__linux__)
// The engine starts and serves on a thread named for it, as top -H and /proc show it.
TEST(JpegBatchDecoder, TheEngineThreadIsNamed) {
  EngineLog log;
  std::string name(32, '\0');
  JpegBatchDecoder decoder(
      [&log, &name] {
        pthread_getname_np(pthread_self(), name.data(), name.size());
        return std::make_unique<FakeEngine>(log);
      },
      JpegBatchTuning{4, 1.0}, "GPU 0");
  std::vector<Job> jobs(1);
  jobs[0].bytes = "aok";
  decode_all(decoder, jobs);  // returns once the engine made and decoded the file
  EXPECT_STREQ(name.c_str(), "jpeg engine");
}
#endif

TEST(JpegBatchDecoder, ZeroBatchSizeDeclinesAtOnce) {
  EngineLog log;
  JpegBatchDecoder decoder(fake(log), JpegBatchTuning{0, 1000.0}, "test");
  std::vector<Job> jobs(3);
  for (Job& job : jobs) job.bytes = "aok";
  decode_all(decoder, jobs);
  for (const Job& job : jobs) EXPECT_FALSE(job.result.decoded);
  EXPECT_TRUE(log.call_sizes.empty());
}

}  // namespace
}  // namespace gpufilter::io::jpeg_batch_decoder_test
