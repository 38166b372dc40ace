#include "gpufilter/io/cpu_decoders.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <system_error>

#include "pipeline/environment_number.hpp"
#include "pipeline/thread_name.hpp"

namespace gpufilter::io {
namespace {

// Raises the calling thread's nice value by `by` (Linux gives each thread its own);
// elsewhere, or where refused, the thread keeps its priority.
void make_this_thread_nicer(int by) {
#if defined(__linux__)
  if (by <= 0) return;
  const auto thread = static_cast<id_t>(::syscall(SYS_gettid));
  errno = 0;
  const int current = ::getpriority(PRIO_PROCESS, thread);
  if (errno != 0) return;
  ::setpriority(PRIO_PROCESS, thread, std::min(19, current + by));
#else
  (void)by;
#endif
}

}  // namespace

// Whether a batch whose JPEG files go to hardware engines decodes with the CPU while the
// engines start (and only then), where no thread count was asked for. Off: measured on two
// GPUs, the decoders slowed the engines' start through the GPU work of the decoded files,
// and every batch was slower with them (docs/gpu-results.md, "The figures behind the batch
// defaults"); and a file's pixels would depend on which decoder was first to it (OpenCV's
// and nvJPEG's differ by up to a mean of 3 levels).
constexpr bool kStartupDecodeByDefault = false;

CpuDecodeTuning cpu_decode_tuning(unsigned cores, std::size_t gpus, bool for_hardware_engine,
                                  std::optional<std::uint64_t> available_memory) {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  constexpr std::uint64_t kDefaultBudget = std::uint64_t{4} << 30;
  const int core_count = static_cast<int>(std::max(1u, cores));
  const bool steady_asked = environment_has("GPUFILTER_JPEG_CPU_DECODERS");
  const bool startup_asked = environment_has("GPUFILTER_JPEG_CPU_DECODERS_STARTUP");
  const bool startup_only = for_hardware_engine && environment_number("GPUFILTER_JPEG_STARTUP_DECODE", 0, 1,
                                                                      kStartupDecodeByDefault ? 1 : 0) == 1;
  // Beside the engine, off by default: a batch took longer with them, the engine's own rate
  // falling (docs/gpu-results.md, "The figures behind the batch defaults").
  const int steady_default = steady_asked ? core_count / 2 : 0;
  CpuDecodeTuning tuning;
  if (!steady_asked && !startup_asked && !startup_only) return tuning;
  tuning.steady_threads = static_cast<int>(environment_number("GPUFILTER_JPEG_CPU_DECODERS", 0, 256, steady_default));
  if (tuning.steady_threads == 0 && steady_asked) return CpuDecodeTuning{};  // 0: off altogether
  // Each GPU's engine starts on a thread of its own (its CUDA context, then nvJPEG's
  // handle and state), beside the threads making its workspaces: two cores per GPU left.
  const int per_gpu_left = 2 * static_cast<int>(std::max<std::size_t>(gpus, 1));
  tuning.startup_threads = static_cast<int>(environment_number("GPUFILTER_JPEG_CPU_DECODERS_STARTUP", 0, 256,
                                                               std::max(1, core_count - per_gpu_left)));
  tuning.startup_threads = std::max(tuning.startup_threads, tuning.steady_threads);
  if (!tuning.on()) return CpuDecodeTuning{};  // no start-up threads asked for, and none after
  std::uint64_t budget = kDefaultBudget;
  if (available_memory) budget = std::min(budget, *available_memory / 4);
  const double budget_mib = environment_number("GPUFILTER_JPEG_CPU_DECODE_MB", 64, 1048576,
                                               static_cast<double>(budget / kMiB));
  tuning.byte_budget = static_cast<std::uint64_t>(budget_mib) * kMiB;
  // Decoding only while the engines start: nicer still, as the engines' start is all
  // that matters then and the decoders only fill the cores it leaves.
  const int nice_default = tuning.steady_threads == 0 ? 10 : tuning.nice;
  tuning.nice = static_cast<int>(environment_number("GPUFILTER_JPEG_CPU_DECODE_NICE", 0, 19, nice_default));
  return tuning;
}

CpuDecoders::CpuDecoders(FileQueue& files, const CpuDecodeTuning& tuning, Decode decode)
    : files_(files), tuning_(tuning), decode_(std::move(decode)) {
  try {
    for (int t = 0; t < tuning_.startup_threads; ++t) threads_.emplace_back([this, t] { serve(t); });
  } catch (const std::system_error&) {
    // Fewer threads than asked for: those that started do the work, and the threads
    // that feed the GPUs take the rest of the files.
  }
}

CpuDecoders::~CpuDecoders() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  room_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void CpuDecoders::serve(int thread_index) {
  name_this_thread("cpu decoder");
  make_this_thread_nicer(tuning_.nice);
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (stopping_ || (engine_ready_ && thread_index >= tuning_.steady_threads)) break;
    // Room for one more image: what is held, and what the files being decoded will hold
    // (each estimated as the largest so far). One file may always be under way.
    const std::uint64_t would_hold = held_ + static_cast<std::uint64_t>(decoding_ + 1) * largest_;
    if ((held_ > 0 || decoding_ > 0) && would_hold > tuning_.byte_budget) {
      room_.wait(lock);
      continue;
    }
    // Counted as decoding before the file is taken, so that done() never sees a file
    // that is neither in the queue, nor being decoded, nor decoded.
    ++decoding_;
    const std::optional<std::size_t> index = files_.take();
    if (!index) {
      --decoding_;
      break;
    }
    lock.unlock();
    Ready ready;
    ready.index = *index;
    try {
      ready.bytes = decode_(*index);
    } catch (...) {
      ready.failure = std::current_exception();
      ready.bytes = 0;
    }
    ready.at = Clock::now();
    lock.lock();
    --decoding_;
    held_ += ready.bytes;
    largest_ = std::max(largest_, ready.bytes);
    ++decoded_;
    if (!engine_ready_) ++decoded_before_engine_;
    ready_.push_back(ready);
    arrived_.notify_one();
  }
  // The last file may have been taken elsewhere: waiters re-check done().
  arrived_.notify_all();
}

std::optional<CpuDecoders::Ready> CpuDecoders::take() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (ready_.empty()) return std::nullopt;
  Ready ready = ready_.front();
  ready_.pop_front();
  return ready;
}

std::optional<CpuDecoders::Ready> CpuDecoders::wait_for(std::chrono::milliseconds at_most) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!arrived_.wait_for(lock, at_most, [this] { return !ready_.empty(); })) return std::nullopt;
  Ready ready = ready_.front();
  ready_.pop_front();
  return ready;
}

bool CpuDecoders::done() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return files_.exhausted() && decoding_ == 0 && ready_.empty();
}

void CpuDecoders::release(std::uint64_t bytes) {
  if (bytes == 0) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    held_ -= std::min(held_, bytes);
  }
  room_.notify_all();
}

void CpuDecoders::engine_ready() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (engine_ready_) return;
    engine_ready_ = true;
  }
  room_.notify_all();
}

long CpuDecoders::decoded() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return decoded_;
}

long CpuDecoders::decoded_before_engine() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return decoded_before_engine_;
}

std::optional<SteadyRate> steady_rate(std::vector<double> completion_ms, double low, double high) {
  if (completion_ms.size() < 10 || !(low >= 0.0 && low < high && high <= 1.0)) return std::nullopt;
  std::sort(completion_ms.begin(), completion_ms.end());
  const double last = static_cast<double>(completion_ms.size() - 1);
  const auto from = static_cast<std::size_t>(std::floor(low * last));
  const auto to = static_cast<std::size_t>(std::ceil(high * last));
  const double seconds = (completion_ms[to] - completion_ms[from]) / 1e3;
  if (!(seconds > 0.0)) return std::nullopt;
  SteadyRate rate;
  rate.files = to - from;
  rate.seconds = seconds;
  rate.files_per_s = static_cast<double>(rate.files) / seconds;
  return rate;
}

std::optional<SteadyRate> rate_after(std::vector<double> completion_ms, double from_ms, double high) {
  if (completion_ms.size() < 10 || !(high > 0.0 && high <= 1.0)) return std::nullopt;
  std::sort(completion_ms.begin(), completion_ms.end());
  const auto to = static_cast<std::size_t>(std::ceil(high * static_cast<double>(completion_ms.size() - 1)));
  const double seconds = (completion_ms[to] - from_ms) / 1e3;
  if (!(seconds > 0.0)) return std::nullopt;
  const auto first_after = std::upper_bound(completion_ms.begin(), completion_ms.end(), from_ms) - completion_ms.begin();
  SteadyRate rate;
  rate.files = to + 1 - static_cast<std::size_t>(first_after);
  rate.seconds = seconds;
  rate.files_per_s = static_cast<double>(rate.files) / seconds;
  return rate;
}

}  // namespace gpufilter::io
