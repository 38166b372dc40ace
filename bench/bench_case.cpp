#include "bench_case.hpp"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <sstream>
#include <type_traits>
#include <variant>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpufilter/error.hpp"
#include "gpufilter/images.hpp"
#include "gpufilter/testing.hpp"

namespace bench {
namespace {

BenchContext* g_context = nullptr;

// Images kept from one case to the next. Cases are registered grouped by format and
// size, so the 0.5 GiB sources of an 8K f32x4 group are filled and uploaded once, and
// the CPU reference runs once for all variants that share its parameters.
struct CaseCache {
  std::string images_key;
  gpufilter::HostImage host_src;
  gpufilter::DeviceImage device_src;
  gpufilter::DeviceImage device_dst;
  gpufilter::HostImage host_dst;

  std::string reference_key;
  gpufilter::HostImage reference;
};
std::unique_ptr<CaseCache> g_cache;

std::string images_key(const CaseSpec& spec) {
  return spec.format.name() + "/" + std::to_string(spec.size.width) + "x" + std::to_string(spec.size.height);
}

std::string reference_key(const CaseSpec& spec) {
  std::ostringstream key;
  key.precision(17);
  key << spec.op->name << '/' << images_key(spec) << '/' << gpufilter::to_string(spec.reference_border.mode);
  for (double v : spec.reference_border.value) key << ',' << v;
  for (const auto& [name, value] : spec.reference_params) {
    key << '/' << name << '=';
    std::visit([&](const auto& v) {
      if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::vector<double>>) {
        for (double item : v) key << item << 'x';
      } else {
        key << v;
      }
    }, value);
  }
  return key.str();
}

CaseCache& cache_for(const CaseSpec& spec, cudaStream_t stream) {
  if (!g_cache) g_cache = std::make_unique<CaseCache>();
  CaseCache& cache = *g_cache;
  const std::string key = images_key(spec);
  if (cache.images_key != key) {
    cache = CaseCache{};  // free the previous group's images before allocating the next
    const int w = spec.size.width, h = spec.size.height;
    cache.host_src = gpufilter::HostImage(w, h, spec.format);
    cache.device_src = gpufilter::DeviceImage(w, h, spec.format);
    cache.device_dst = gpufilter::DeviceImage(w, h, spec.format);
    cache.host_dst = gpufilter::HostImage(w, h, spec.format);
    // The seed depends on the format and size only: the same source for every variant.
    gpufilter::testing::fill_random(cache.host_src.view(), std::hash<std::string>{}(key));
    gpufilter::copy_image_async(cache.host_src.view(), cache.device_src.view(), stream);
    GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream));
    cache.images_key = key;
  }
  return cache;
}

const gpufilter::HostImage& reference_for(const CaseSpec& spec, CaseCache& cache) {
  const std::string key = reference_key(spec);
  if (cache.reference_key != key) {
    cache.reference_key.clear();
    if (cache.reference.view().empty())
      cache.reference = gpufilter::HostImage(spec.size.width, spec.size.height, spec.format);
    spec.op->run_reference(cache.host_src.view(), cache.reference.view(), spec.reference_params,
                           spec.reference_border);
    cache.reference_key = key;
  }
  return cache.reference;
}

void record_failure(benchmark::State& state, CaseResult row, const std::string& why) {
  row.ok = false;
  row.error = why;
  Results::global().record(row);
  state.SkipWithError(why.c_str());
}

void run_case(benchmark::State& state, const CaseSpec& spec) {
  BenchContext& ctx = bench_context();
  const cudaStream_t stream = ctx.stream.get();
  CaseResult row = spec.row;
  PreparedCase prepared;
  auto launch = [&] { spec.launch(prepared.src, prepared.dst, stream); };
  try {
    prepared = prepare_and_check(spec);
    row.max_error = prepared.max_error;
    warm_up(stream, launch, ctx.options.warmup);
  } catch (const std::exception& e) {
    record_failure(state, row, e.what());
    return;  // allowed after SkipWithError: the timing loop is not entered
  }

  std::vector<double> samples_ms;
  std::optional<std::string> failure;
  for (auto _ : state) {
    try {
      const double ms = timed_launch_ms(stream, launch, ctx.flusher, ctx.timer);
      state.SetIterationTime(ms * 1e-3);
      samples_ms.push_back(ms);
    } catch (const std::exception& e) {
      failure = e.what();
      break;
    }
  }
  if (failure) {
    record_failure(state, row, *failure);
    return;
  }

  row.ok = true;
  row.median_us = median(samples_ms) * 1e3;
  const double bytes = static_cast<double>(
      spec.op->bytes_moved(spec.size.width, spec.size.height, spec.format, spec.params));
  row.gbps = row.median_us > 0.0 ? bytes / (row.median_us * 1e-6) / 1e9 : 0.0;
  Results::global().record(row);

  // These counters go to the console and to --benchmark_out; vs_naive and vs_<peer>
  // are added to the JSON file after the last case (see json_reporter.hpp).
  // Google Benchmark's own "Time" column is the mean of the same samples.
  state.counters["median_us"] = benchmark::Counter(row.median_us);
  state.counters["GB/s"] = benchmark::Counter(row.gbps);
  state.counters["max_err"] = benchmark::Counter(row.max_error);
  if (const auto ratios = Results::global().ratios(row); ratios.roofline)
    state.counters["roofline"] = benchmark::Counter(*ratios.roofline);
}

}  // namespace

BenchContext::BenchContext(BenchOptions opts) : options(std::move(opts)) {}

void set_bench_context(BenchContext* context) { g_context = context; }

BenchContext& bench_context() {
  if (g_context == nullptr) throw std::logic_error("bench context used before it was created");
  return *g_context;
}

PreparedCase prepare_and_check(const CaseSpec& spec) {
  BenchContext& ctx = bench_context();
  const cudaStream_t stream = ctx.stream.get();
  CaseCache& cache = cache_for(spec, stream);
  PreparedCase prepared{cache.device_src.view(), cache.device_dst.view(), 0.0};

  // All bytes 0xFF: NaN for f32, the maximum for u8/u16, so an unwritten pixel fails
  // the check (blurring random data lands near mid-range, far from the maximum).
  const gpufilter::ImageView& dst = prepared.dst;
  GPUFILTER_CUDA_CHECK(cudaMemset2DAsync(dst.data, dst.pitch, 0xFF, dst.row_bytes(),
                                         static_cast<std::size_t>(dst.height), stream));
  spec.launch(prepared.src, prepared.dst, stream);
  gpufilter::copy_image_async(prepared.dst, cache.host_dst.view(), stream);
  GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream));

  const gpufilter::HostImage& reference = reference_for(spec, cache);
  const gpufilter::testing::Difference diff = gpufilter::testing::compare(cache.host_dst.view(), reference.view());
  prepared.max_error = diff.max_abs;
  if (!diff.within(spec.tolerance)) {
    std::ostringstream message;
    message << "output differs from the reference beyond the tolerance " << spec.tolerance.max_abs << " (at most "
            << spec.tolerance.max_differing_share * 100 << "% of samples differing): " << diff.describe();
    throw std::runtime_error(message.str());
  }
  return prepared;
}

void register_case(const CaseSpec& spec) {
  const int iterations = bench_context().options.iterations;
  benchmark::RegisterBenchmark(spec.row.name.c_str(), [spec](benchmark::State& state) { run_case(state, spec); })
      ->Iterations(iterations)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

void release_case_cache() { g_cache.reset(); }

}  // namespace bench
