#include "gpufilter/io/batch.hpp"

#include <cuda_runtime_api.h>

#include <opencv2/core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <atomic>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/io/codecs.hpp"
#include "gpufilter/io/cpu_decoders.hpp"
#include "gpufilter/io/execute.hpp"
#include "gpufilter/io/gpu_jpeg.hpp"
#include "gpufilter/io/jpeg_batch_decoder.hpp"
#include "gpufilter/io/jpeg_file.hpp"
#include "gpufilter/io/process_file.hpp"
#include "gpufilter/io/stop_request.hpp"
#include "gpufilter/io/timing.hpp"
#include "pipeline/gpu_pool.hpp"
#include "files/host_memory.hpp"
#include "pipeline/thread_name.hpp"

namespace gpufilter::io {
namespace {

// Workspaces per GPU: each holds one file's device images and nvJPEG states, and nvJPEG
// decodes a file partly on the CPU thread that holds the workspace, so a GPU gets as many
// as threads feed it, at least three (one uploading, one running, one downloading) and
// at most eight (device memory: three images per workspace). With batched JPEG decoding
// a workspace also waits for its file's batch, so a GPU gets enough for one batch
// gathering while another decodes and a few more running the op and encoding
// (`batched_workspaces`). GPUFILTER_GPU_WORKSPACES overrides the count for tuning (1..64).
int workspaces_per_device(std::size_t threads, std::size_t devices, int batched_workspaces) {
  if (const char* text = std::getenv("GPUFILTER_GPU_WORKSPACES")) {
    const int count = std::atoi(text);
    if (count >= 1 && count <= 64) return count;
  }
  const std::size_t share = (threads + devices - 1) / std::max<std::size_t>(devices, 1);
  return static_cast<int>(std::clamp<std::size_t>(share, 3, batched_workspaces > 0 ? batched_workspaces : 8));
}

// Batched JPEG decoding: a batch's device memory is bounded by its workspaces, each
// holding up to three images of its file's size (decoded, turned upright, result) and a
// chain's intermediates: 28 workspaces of 12 MP photos hold 2.0-3.0 GB per GPU.
struct BatchedJpegPlan {
  std::optional<JpegBatchTuning> tuning;  // none: every JPEG decoded file by file
  int workspaces = 0;                     // per GPU
};

// Batched decoding where the run is on GPUs, the build has nvJPEG, OpenCV's codecs were
// not asked for (--codec cpu), the inputs start with a JPEG (the first few are looked at)
// and GPUFILTER_JPEG_BATCH is not 0.
bool batched_jpeg_wanted(const RunRequest& request, const std::vector<BatchItem>& items) {
  if (jpeg_batch_tuning().max_batch <= 0 || request.codec == CodecChoice::Cpu || !gpu_jpeg_built()) return false;
  const std::size_t looked_at = std::min<std::size_t>(items.size(), 8);
  bool jpeg = false;
  for (std::size_t i = 0; i < looked_at && !jpeg; ++i) jpeg = starts_like_jpeg(items[i].input);
  return jpeg;
}

// `cpu_decoders`: CPU decoders run beside the engine; their files need workspaces too (a
// few more; docs/gpu-results.md, "The figures behind the batch defaults").
// `wanted`: batched_jpeg_wanted() for this run.
BatchedJpegPlan plan_batched_jpeg(bool wanted, bool cpu_decoders) {
  BatchedJpegPlan plan;
  if (!wanted) return plan;
  const JpegBatchTuning tuning = jpeg_batch_tuning();
  plan.tuning = tuning;
  // One batch gathering while one decodes is 2 x max_batch files in flight at most; a GPU
  // needs fewer (Little's law: its rate times a file's time in a workspace), hence the cap,
  // which also bounds device memory (docs/gpu-results.md, "The figures behind the batch
  // defaults").
  plan.workspaces = std::min(2 * tuning.max_batch + 4, 28) + (cpu_decoders ? 4 : 0);
  return plan;
}

// --devices resolved against the GPUs present.
std::vector<int> batch_devices(const RunRequest& request) {
  int count = 0;
  GPUFILTER_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (request.all_devices || request.devices.empty()) {
    std::vector<int> devices;
    for (int d = 0; d < (request.all_devices ? count : 1); ++d) devices.push_back(d);
    return devices;
  }
  for (const int device : request.devices)
    if (device >= count)
      throw IoError(Fault::Request, "--devices names GPU " + std::to_string(device) + ", but there are " +
                                          std::to_string(count));
  return request.devices;
}

std::uint64_t file_bytes(const std::filesystem::path& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  return error ? 0 : static_cast<std::uint64_t>(size);
}

// What one file's failure is reported as, and whose fault it was.
struct Failure {
  Fault fault;
  std::string message;
};

Failure failure_of(std::exception_ptr caught) {
  try {
    std::rethrow_exception(caught);
  } catch (const IoError& error) {
    return {error.fault(), error.what()};
  } catch (const Error& error) {
    return {error.code() == ErrorCode::UnsupportedFormat ? Fault::Input : Fault::Runtime, error.what()};
  } catch (const cv::Exception& error) {
    return {Fault::Input, "OpenCV: " + error.err};
  } catch (const std::bad_alloc&) {
    return {Fault::Runtime, "out of host memory"};
  } catch (const std::exception& error) {
    return {Fault::Runtime, error.what()};
  }
}

std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

// When the last GPU's hardware engine was ready, in ms since `batch_clock` started;
// nullopt without one.
std::optional<double> engine_ready_ms(const GpuPool* pool, const Stopwatch& batch_clock) {
  const auto ready_at = pool ? pool->jpeg_engines_ready_at() : std::nullopt;
  if (!ready_at || pool->jpeg_engine_files() == 0) return std::nullopt;
  return batch_clock.elapsed_ms() -
         std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *ready_at).count();
}

// "gpufilter: decoders: hardware engine 380 files (ready T ms into the batch), CPU 120
// files (OpenCV, 0 threads, 12 while the engine started, 4096 MiB for decoded images,
// nice 10; 95 before it was ready; 16 taken for engines still starting), one by one
// (nvJPEG or OpenCV) 0", for --timing. `for_starting_engines`: files handed to an engine
// before it was ready while the CPU decoders ran.
std::string decoder_summary(std::size_t files, const GpuPool* pool, const CpuDecoders* decoders,
                            std::optional<double> engine_ready_ms, std::size_t for_starting_engines) {
  const long engine = pool ? pool->jpeg_engine_files() : 0;
  const long cpu = decoders ? decoders->decoded() : 0;
  std::string text = "gpufilter: decoders: hardware engine " + std::to_string(engine) + " files";
  if (engine_ready_ms) {
    char ready[96];
    std::snprintf(ready, sizeof ready, " (ready %.0f ms into the batch)", *engine_ready_ms);
    text += ready;
  }
  if (decoders) {
    char line[256];
    std::snprintf(line, sizeof line,
                  ", CPU %ld files (OpenCV, %d threads, %d while the engine started, %.0f MiB for decoded images, "
                  "nice %d",
                  cpu, decoders->tuning().steady_threads, decoders->tuning().startup_threads,
                  static_cast<double>(decoders->tuning().byte_budget) / (1024.0 * 1024.0), decoders->tuning().nice);
    text += line;
    if (engine > 0) {
      text += "; " + std::to_string(decoders->decoded_before_engine()) + " before it was ready; " +
              std::to_string(for_starting_engines) + " taken for engines still starting";
    }
    text += ")";
  } else {
    text += ", CPU 0 files (no CPU decoders)";
  }
  const long others = static_cast<long>(files) - engine - cpu;
  return text + ", one by one (nvJPEG or OpenCV) " + std::to_string(std::max(0L, others));
}

// "gpufilter: throughput: 170.1 files/s overall; 260.5 files/s steady (401 files between the
// 10th and 90th percentiles of completion, 1.54 s); ... once the engine was ready ...", for
// --timing. `engine_ready_ms`: when the hardware engine was ready, into the batch (nullopt:
// none).
std::string throughput_summary(const std::vector<double>& completion_ms, double wall_ms,
                               std::optional<double> engine_ready_ms) {
  char line[256];
  const double overall = wall_ms > 0 ? static_cast<double>(completion_ms.size()) * 1e3 / wall_ms : 0.0;
  std::snprintf(line, sizeof line, "gpufilter: throughput: %.1f files/s overall", overall);
  std::string text = line;
  if (const std::optional<SteadyRate> steady = steady_rate(completion_ms)) {
    std::snprintf(line, sizeof line,
                  "; %.1f files/s steady (%zu files between the 10th and 90th percentiles of completion, %.2f s)",
                  steady->files_per_s, steady->files, steady->seconds);
    text += line;
  }
  if (engine_ready_ms) {
    if (const std::optional<SteadyRate> after = rate_after(completion_ms, *engine_ready_ms)) {
      std::snprintf(line, sizeof line, "; %.1f files/s once the engine was ready, to the 90th percentile (%zu files, %.2f s)",
                    after->files_per_s, after->files, after->seconds);
      text += line;
    }
  }
  return text;
}

}  // namespace

BatchResult run_batch(const RunRequest& request, const std::vector<BatchItem>& items, BatchListener& listener) {
  const Stopwatch batch_clock;
  const BatchOptions& options = *request.batch;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  FileQueue files(items.size());

  // Looked at once (it reads the first files' headers): for the CPU decoders' default and
  // for the GPUs' plan below.
  const bool batched_jpeg = request.device != DeviceChoice::Cpu && batched_jpeg_wanted(request, items);
  const DeviceSelection selection = select_device(request.device);
  if (!selection.notice.empty()) listener.message(selection.notice + "\n");
  std::vector<int> devices;
  if (selection.device == Device::Gpu) devices = batch_devices(request);
  // Not by default with --codec gpu, which asks for nvJPEG's decoding.
  const bool to_hardware_engines =
      selection.device == Device::Gpu && batched_jpeg && request.codec == CodecChoice::Auto;
  const CpuDecodeTuning cpu_tuning =
      cpu_decode_tuning(cores, devices.size(), to_hardware_engines, available_host_memory());
  BatchedJpegPlan batched;
  if (selection.device == Device::Gpu) batched = plan_batched_jpeg(batched_jpeg, cpu_tuning.on());
  // With batched decoding most threads wait for their batch, holding a workspace: one
  // thread for each workspace, and a few reading and writing files beside them.
  const std::size_t default_threads =
      batched.tuning ? std::max<std::size_t>(cores, devices.size() * static_cast<std::size_t>(batched.workspaces) + 4)
                     : cores;
  const std::size_t threads = std::min<std::size_t>(
      items.size(), options.jobs > 0 ? static_cast<std::size_t>(options.jobs) : default_threads);
  // Files decode and encode side by side: each PNG codec takes its share of the cores.
  codecs::set_threads_per_file(static_cast<unsigned>(std::max<std::size_t>(1, cores / std::max<std::size_t>(1, threads))));
  // The GPUs' hardware engines start first, each on a thread of its own (GpuPool), so
  // that their CUDA contexts and nvJPEG's handles get the cores before the CPU decoders'
  // threads come: beside those an engine's start was measured slower (docs/gpu-results.md,
  // "The figures behind the batch defaults").
  std::optional<GpuPool> pool;
  std::unique_ptr<Runner> runner;
  if (selection.device == Device::Gpu) {
    pool.emplace(devices, workspaces_per_device(threads, devices.size(), batched.workspaces), batched.tuning);
    runner = std::make_unique<PooledGpuRunner>(*pool);
  } else {
    runner = std::make_unique<CpuRunner>();
  }
  struct CpuDecodedFile {
    std::optional<DecodedInput> input;
    StageTimes times;
  };
  std::vector<CpuDecodedFile> cpu_files(cpu_tuning.on() ? items.size() : 0);
  std::optional<CpuDecoders> decoders;
  if (cpu_tuning.on()) {
    decoders.emplace(files, cpu_tuning, [&request, &items, &cpu_files](std::size_t i) -> std::uint64_t {
      check_output_path(request, items[i].input, items[i].output);
      CpuDecodedFile& file = cpu_files[i];
      file.input = decode_on_cpu(request, items[i].input, file.times);
      return file.input->host_bytes();
    });
  }
  // Without a hardware engine starting, the CPU decoders are at their steady count now.
  if (decoders && !(pool && pool->jpeg_engines_starting())) decoders->engine_ready();
  listener.started();
  const Stopwatch run_clock;  // from the first file on, as the caller's progress counts
  std::mutex failure_mutex;
  std::optional<Fault> first_failure;
  StageTotals totals;
  std::mutex completion_mutex;
  std::vector<double> completion_ms;
  completion_ms.reserve(items.size());

  // --codec gpu on the CPU fails each JPEG file as the per-file path says: a CPU-decoded
  // file is then read again that way (the CPU decoders run there only where asked for).
  const bool cpu_decoded_usable = !(request.codec == CodecChoice::Gpu && selection.device == Device::Cpu);
  // One file: from its name (the engine's path or per file), or decoded by a CPU decoder.
  auto run_file = [&](std::size_t i, const std::optional<CpuDecoders::Ready>& ready) {
    const BatchItem& item = items[i];
    bool ok = false;
    std::string error;
    try {
      StageTimes times;
      std::string notes;
      if (ready && cpu_decoded_usable) {
        if (ready->failure) std::rethrow_exception(ready->failure);
        CpuDecodedFile& file = cpu_files[i];
        times = std::move(file.times);
        times.add("decoded wait", Stopwatch(ready->at).elapsed_ms());
        process_decoded_file(request, item.input, item.output, std::move(*file.input), *runner, times, notes);
      } else {
        check_output_path(request, item.input, item.output);
        process_image_file(request, item.input, item.output, *runner, times, notes);
      }
      if (request.timing) totals.add(times);
      if (!notes.empty()) listener.message(notes);
      ok = true;
    } catch (...) {
      const Failure failure = failure_of(std::current_exception());
      error = one_line(failure.message);
      listener.message("gpufilter: error: " + item.input.string() + ": " + error + "\n");
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (!first_failure) first_failure = failure.fault;
    }
    if (ready) {
      cpu_files[i].input.reset();
      decoders->release(ready->bytes);
    }
    listener.file_result(i, ok, error);
    listener.file_done(file_bytes(item.input), ok);
    const std::lock_guard<std::mutex> lock(completion_mutex);
    completion_ms.push_back(batch_clock.elapsed_ms());
  };

  // While the hardware engines start, at most one batch per starting GPU waits for them
  // (holding workspaces), counted as files are taken; a GPU whose engine is ready takes
  // files as its workspaces free up (the pool sends them there), and the other threads run
  // the CPU decoders' files meanwhile.
  const std::size_t batch_files = batched.tuning ? static_cast<std::size_t>(std::max(1, batched.tuning->max_batch)) : 0;
  StartingEngineAllowance for_starting_engines(pool ? pool->jpeg_engines_starting_count() * batch_files : 0);
  // A file from the queue, for whichever GPU; while an engine starts, only as above.
  auto take_file = [&]() -> std::optional<std::size_t> {
    const bool engine_starting = pool && pool->jpeg_engines_starting();
    if (!engine_starting) decoders->engine_ready();
    if (!engine_starting || pool->started_engine_has_room()) return files.take();
    return for_starting_engines.take(files);
  };
  // The next piece of work: a CPU-decoded file first (it holds host memory), else a file
  // from the queue; false when nothing is left.
  auto next_work = [&](std::size_t& index, std::optional<CpuDecoders::Ready>& ready) {
    ready.reset();
    while (true) {
      if (!decoders) {
        const std::optional<std::size_t> taken = files.take();
        if (taken) index = *taken;
        return taken.has_value();
      }
      // Checked here too, not only when a file is taken from the queue: while decoded
      // files keep coming, the queue is never reached, and start-up decoders that were
      // never told that the engines are ready would decode every file on the CPU.
      if (!(pool && pool->jpeg_engines_starting())) decoders->engine_ready();
      if ((ready = decoders->take())) {
        index = ready->index;
        return true;
      }
      if (const std::optional<std::size_t> taken = take_file()) {
        index = *taken;
        return true;
      }
      if (decoders->done()) return false;
      if ((ready = decoders->wait_for(std::chrono::milliseconds(2)))) {
        index = ready->index;
        return true;
      }
    }
  };
  auto work = [&] {
    std::size_t index = 0;
    std::optional<CpuDecoders::Ready> ready;
    while (!stop_request().load() && next_work(index, ready)) run_file(index, ready);
  };
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < threads; ++t)
    workers.emplace_back([&work] {
      name_this_thread("batch worker");
      work();
    });
  work();
  for (std::thread& worker : workers) worker.join();
  BatchResult result;
  result.first_failure = first_failure;
  result.stopped = stop_request().load();
  if (pool) {
    result.devices = devices;
    result.runs_per_device = pool->runs_per_device();
  }
  if (request.timing) {
    const double wall_ms = batch_clock.elapsed_ms();
    result.timing.push_back(totals.summary(threads, run_clock.elapsed_ms()));
    if (pool)
      for (const std::string& line : pool->batch_decoding_summaries()) result.timing.push_back(line);
    const std::optional<double> ready_ms = engine_ready_ms(pool ? &*pool : nullptr, batch_clock);
    result.timing.push_back(decoder_summary(items.size(), pool ? &*pool : nullptr, decoders ? &*decoders : nullptr,
                                            ready_ms, for_starting_engines.taken()));
    result.timing.push_back(throughput_summary(completion_ms, wall_ms, ready_ms));
  }
  return result;
}

}  // namespace gpufilter::io
