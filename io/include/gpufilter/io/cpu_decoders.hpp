#pragma once
/// @file
/// The CPU cores as a second JPEG decoder beside a GPU's hardware engine, for `gpufilter OP
/// IN... --out-dir DIR`. The engine is ready only a second or so into a run (the CUDA
/// context, then nvJPEG's hardware handle and state, docs/gpu-results.md, "The figures
/// behind the batch defaults"), while the cores would idle: from the first moment, threads
/// of their own take files from the batch's queue and decode them with OpenCV, as the
/// per-file OpenCV path does, into host images that wait (within a byte budget) for a GPU
/// workspace. Once the engine is ready fewer of them go on, taking files from the same queue
/// as the threads that feed the engine, so the cores keep adding to its throughput.
///
/// What a file decodes into is the caller's (a slot per file); here are only the queue,
/// the threads, the budget and the hand-over.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace gpufilter::io {

/// The batch's files, each handed out once, in order, to whoever asks first: the CPU
/// decoders and the threads that feed the GPUs take from it alike (work stealing).
class FileQueue {
 public:
  explicit FileQueue(std::size_t count) : count_(count) {}
  std::optional<std::size_t> take() {
    const std::size_t index = next_.fetch_add(1);
    if (index < count_) return index;
    return std::nullopt;
  }
  bool exhausted() const { return next_.load() >= count_; }
  std::size_t size() const { return count_; }

 private:
  const std::size_t count_;
  std::atomic<std::size_t> next_{0};
};

/// The files a batch hands to hardware engines that are still starting, each of which
/// waits for its engine holding a GPU workspace: at most `cap` in all (a batch per
/// starting GPU), each counted once, when it is taken from the queue.
class StartingEngineAllowance {
 public:
  explicit StartingEngineAllowance(std::size_t cap) : cap_(cap) {}
  /// The queue's next file while fewer than `cap` were taken here; nullopt once they were,
  /// or when the queue is empty. Thread-safe.
  std::optional<std::size_t> take(FileQueue& files) {
    std::size_t used = taken_.load();
    do {
      if (used >= cap_) return std::nullopt;
    } while (!taken_.compare_exchange_weak(used, used + 1));
    const std::optional<std::size_t> file = files.take();
    if (!file) taken_.fetch_sub(1);  ///< the place goes back: no file came with it
    return file;
  }
  std::size_t taken() const { return taken_.load(); }

 private:
  const std::size_t cap_;
  std::atomic<std::size_t> taken_{0};
};

struct CpuDecodeTuning {
  /// Threads decoding once the hardware engine is ready. Half the cores decode beside the
  /// engine while the other half read files, drive nvJPEG's encoder, upload the CPU-decoded
  /// images from pageable memory and write the results (docs/gpu-results.md, "The figures
  /// behind the batch defaults"). Default where on: half the cores. 0: none once the engine
  /// is ready.
  int steady_threads = 0;
  /// Threads while the engines start, when the cores have nothing else to do: all but two
  /// per GPU (which make its CUDA context and nvJPEG's engine). At least steady_threads.
  int startup_threads = 0;
  /// Decoded images held at once, waiting for a GPU or being uploaded (12 MP RGB is 36 MB):
  /// the decoders run ~0.4 s ahead of the CUDA context, ~14 threads x 6 images, 3 GB.
  std::uint64_t byte_budget = 0;
  /// How much nicer than the rest of the process the decoding threads run (Linux: per
  /// thread): the critical path is the CUDA context and the engine's start, on threads of
  /// their own, then the engine's files (read, encode, write); the CPU decoders take the
  /// cores those leave idle rather than slowing them down.
  int nice = 5;

  bool on() const { return startup_threads > 0; }
};

/// Off unless asked for: beside the engine they were measured slower (cpu_decoders.cpp
/// says by how much). `gpus`: the batch's GPUs (0 on the CPU); `for_hardware_engine`:
/// its JPEG files go to the GPUs' hardware engines. The budget is at most a quarter of
/// `available_memory` (bytes; unknown: none) and 4 GiB. For tuning and timing, and in
/// any batch once set:
/// - GPUFILTER_JPEG_STARTUP_DECODE=1 (or 0): with the hardware engines, decoders only
///   while the engines start (0 steady threads, all cores but two per GPU, nice 10); the
///   default where neither thread count below is set.
/// - GPUFILTER_JPEG_CPU_DECODERS=N (0..256 steady threads; 0 turns the CPU decoders off
///   altogether, start-up ones included);
/// - GPUFILTER_JPEG_CPU_DECODERS_STARTUP=M (0..256 threads while the engines start; never
///   below N; on its own, start-up decoders alone; 0 with no N: none);
/// - GPUFILTER_JPEG_CPU_DECODE_MB=X (64..1048576, the byte budget in MiB);
/// - GPUFILTER_JPEG_CPU_DECODE_NICE=K (0..19, 0: the priority of the rest; default 10
///   with no steady threads, else 5).
CpuDecodeTuning cpu_decode_tuning(unsigned cores, std::size_t gpus, bool for_hardware_engine,
                                  std::optional<std::uint64_t> available_memory);

class CpuDecoders {
 public:
  using Clock = std::chrono::steady_clock;
  /// Decodes file `index` into the caller's slot for it and returns the bytes that holds
  /// until release(); throws the file's failure, which comes back with it.
  using Decode = std::function<std::uint64_t(std::size_t index)>;

  /// Starts tuning.startup_threads threads taking files from `files`.
  CpuDecoders(FileQueue& files, const CpuDecodeTuning& tuning, Decode decode);
  /// Stops the threads once their current file is decoded, and joins them.
  ~CpuDecoders();
  CpuDecoders(const CpuDecoders&) = delete;
  CpuDecoders& operator=(const CpuDecoders&) = delete;

  struct Ready {
    std::size_t index = 0;
    std::uint64_t bytes = 0;      ///< held until release(bytes)
    std::exception_ptr failure;   ///< set: the file could not be decoded; nothing held
    Clock::time_point at;         ///< when it was decoded
  };
  /// A decoded file, at once; nullopt when none waits.
  std::optional<Ready> take();
  /// A decoded file, waiting up to `at_most` for one.
  std::optional<Ready> wait_for(std::chrono::milliseconds at_most);
  /// No decoded file will come any more: the queue is empty, none is being decoded and
  /// every decoded one was taken.
  bool done() const;
  /// A taken file's image is gone; the budget has room for `bytes` more.
  void release(std::uint64_t bytes);
  /// Every hardware engine is ready: threads beyond tuning.steady_threads stop after their
  /// file (all of them with start-up decoding alone). Idempotent.
  void engine_ready();

  /// For --timing: files decoded (or failed) by the threads, and how many of them before
  /// engine_ready().
  long decoded() const;
  long decoded_before_engine() const;
  const CpuDecodeTuning& tuning() const { return tuning_; }

 private:
  void serve(int thread_index);

  FileQueue& files_;
  const CpuDecodeTuning tuning_;
  const Decode decode_;

  mutable std::mutex mutex_;
  std::condition_variable arrived_;  ///< a file decoded
  std::condition_variable room_;     ///< budget freed, the engine ready, or stopping
  std::deque<Ready> ready_;
  int decoding_ = 0;             ///< files being decoded now
  std::uint64_t held_ = 0;       ///< bytes of decoded files not yet released
  std::uint64_t largest_ = 0;    ///< the largest file's bytes so far: a decode's estimate
  bool engine_ready_ = false;
  bool stopping_ = false;
  long decoded_ = 0;
  long decoded_before_engine_ = 0;

  std::vector<std::thread> threads_;  ///< last: they start once everything above exists
};

/// Files per second between the completions at fractions `low` and `high` of the batch
/// (0.1 and 0.9: the 10th and 90th percentiles), the rate without start-up and the tail;
/// `completion_ms` in any order. nullopt for fewer than 10 files or no time between.
struct SteadyRate {
  double files_per_s = 0.0;
  std::size_t files = 0;    ///< completions between the two
  double seconds = 0.0;
};
std::optional<SteadyRate> steady_rate(std::vector<double> completion_ms, double low = 0.1, double high = 0.9);
/// Files per second from `from_ms` (the engine ready) to the completion at fraction `high`
/// of the batch: the rate with every decoder running. nullopt where no completion at
/// `high` comes after `from_ms` or fewer than 10 files.
std::optional<SteadyRate> rate_after(std::vector<double> completion_ms, double from_ms, double high = 0.9);

}  // namespace gpufilter::io
