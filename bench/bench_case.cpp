#include "bench_case.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
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

  // The output, for the shape the current op gives (the input's, for filters).
  std::string output_key;
  gpufilter::DeviceImage device_dst;
  gpufilter::HostImage host_dst;
  gpufilter::DeviceData device_result;

  std::string reference_key;
  gpufilter::HostImage reference;
  std::vector<double> reference_data;
};
std::unique_ptr<CaseCache> g_cache;

std::string images_key(const CaseSpec& spec) {
  return spec.format.name() + "/" + std::to_string(spec.size.width) + "x" + std::to_string(spec.size.height) + "/" +
         spec.row.data;
}

template <class T>
void fill_rows(const gpufilter::ImageView& view, double (*value)(int x, int y, int c, const gpufilter::ImageView&)) {
  for (int y = 0; y < view.height; ++y) {
    T* row = view.row<T>(y);
    for (int x = 0; x < view.width; ++x)
      for (int c = 0; c < view.format.channels; ++c)
        row[static_cast<std::size_t>(x) * view.format.channels + c] = static_cast<T>(value(x, y, c, view));
  }
}

// The top of the format's range for the patterns: 1 for f32 (the histogram's default
// range), the maximum for integers.
double pattern_top(const gpufilter::ImageView& view) {
  return view.format.type == gpufilter::ChannelType::F32 ? 1.0 : view.format.max_value();
}

// Low-entropy sources: "constant", one mid-range value per channel (every sample in one
// histogram bin, every pixel a tie for the minimum and maximum); "gradient", a smooth
// ramp over the image (long runs of equal values, extremes at the corners).
void fill_pattern(const gpufilter::ImageView& view, const std::string& pattern, std::size_t seed) {
  if (pattern == "random") {
    gpufilter::testing::fill_random(view, seed);
    return;
  }
  double (*value)(int, int, int, const gpufilter::ImageView&) = nullptr;
  if (pattern == "constant") {
    value = [](int, int, int c, const gpufilter::ImageView& v) {
      const double t = pattern_top(v) * (0.5 + 0.1 * c);
      return v.format.type == gpufilter::ChannelType::F32 ? t : std::floor(t);
    };
  } else {
    value = [](int x, int y, int c, const gpufilter::ImageView& v) {
      const double t = pattern_top(v) * (static_cast<double>(x) + y + c) / (v.width + v.height + 3.0);
      return v.format.type == gpufilter::ChannelType::F32 ? t : std::floor(t);
    };
  }
  switch (view.format.type) {
    case gpufilter::ChannelType::U8: fill_rows<std::uint8_t>(view, value); break;
    case gpufilter::ChannelType::U16: fill_rows<std::uint16_t>(view, value); break;
    case gpufilter::ChannelType::F32: fill_rows<float>(view, value); break;
  }
}

std::string reference_key(const CaseSpec& spec) {
  std::ostringstream key;
  key.precision(17);
  key << spec.op->name << '/' << images_key(spec) << '/' << gpufilter::to_string(spec.reference_border.mode);
  for (double v : spec.reference_border.value) key << ',' << v;
  return key.str() + "/" + params_text(spec.reference_params);
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
    // The seed depends on the format, size and pattern only: the same source for every variant.
    fill_pattern(cache.host_src.view(), spec.row.data, std::hash<std::string>{}(key));
    gpufilter::copy_image_async(cache.host_src.view(), cache.device_src.view(), stream);
    GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream));
    cache.images_key = key;
  }
  return cache;
}

gpufilter::ImageShape input_shape(const CaseSpec& spec) {
  return gpufilter::ImageShape{spec.size.width, spec.size.height, spec.format};
}

gpufilter::ImageShape output_shape(const CaseSpec& spec) {
  return spec.op->output_shape_for(input_shape(spec), spec.reference_params);
}

std::string shape_key(const gpufilter::ImageShape& shape) {
  return shape.format.name() + "/" + std::to_string(shape.width) + "x" + std::to_string(shape.height);
}

// The output buffers for this case's op: an image of its output shape, or room for its
// data table.
void prepare_output(const CaseSpec& spec, CaseCache& cache) {
  if (!spec.op->produces_image()) {
    const std::size_t count = spec.op->data_layout(input_shape(spec), spec.reference_params).size();
    if (cache.device_result.size() != count) cache.device_result = gpufilter::DeviceData(count);
    return;
  }
  const gpufilter::ImageShape shape = output_shape(spec);
  const std::string key = shape_key(shape);
  if (cache.output_key == key) return;
  cache.output_key.clear();
  cache.device_dst = gpufilter::DeviceImage();  // the old one goes before the new one comes
  cache.host_dst = gpufilter::HostImage();
  cache.reference = gpufilter::HostImage();
  cache.reference_key.clear();
  cache.device_dst = gpufilter::DeviceImage(shape.width, shape.height, shape.format);
  cache.host_dst = gpufilter::HostImage(shape.width, shape.height, shape.format);
  cache.output_key = key;
}

const gpufilter::HostImage& reference_for(const CaseSpec& spec, CaseCache& cache) {
  const std::string key = reference_key(spec);
  if (cache.reference_key != key) {
    cache.reference_key.clear();
    const gpufilter::ImageShape shape = output_shape(spec);
    if (cache.reference.view().empty())
      cache.reference = gpufilter::HostImage(shape.width, shape.height, shape.format);
    spec.op->run_reference(cache.host_src.view(), cache.reference.view(), spec.reference_params,
                           spec.reference_border);
    cache.reference_key = key;
  }
  return cache.reference;
}

const std::vector<double>& reference_data_for(const CaseSpec& spec, CaseCache& cache) {
  const std::string key = reference_key(spec);
  if (cache.reference_key != key) {
    cache.reference_key.clear();
    cache.reference_data.assign(spec.op->data_layout(input_shape(spec), spec.reference_params).size(), 0.0);
    spec.op->run_reference_data(cache.host_src.view(), cache.reference_data.data(), spec.reference_params);
    cache.reference_key = key;
  }
  return cache.reference_data;
}

// Runs a data case once into a NaN-poisoned result and judges it with its check.
void check_data_case(const CaseSpec& spec, CaseCache& cache, PreparedCase& prepared, cudaStream_t stream) {
  const gpufilter::DataLayout layout = spec.op->data_layout(input_shape(spec), spec.reference_params);
  std::vector<double> actual(layout.size(), std::numeric_limits<double>::quiet_NaN());
  cache.device_result.upload_async(actual.data(), stream);
  spec.data_launch(prepared.src, prepared.result, stream);
  cache.device_result.download_async(actual.data(), stream);
  GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<double>& expected = reference_data_for(spec, cache);
  for (std::size_t i = 0; i < actual.size(); ++i)
    if (!std::isnan(actual[i])) prepared.max_error = std::max(prepared.max_error, std::fabs(actual[i] - expected[i]));
  const std::string failure = spec.check_data(layout, actual.data(), expected.data());
  if (!failure.empty()) throw std::runtime_error("result differs from the reference: " + failure);
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
  auto launch = [&] { spec.run(prepared.src, prepared.dst, prepared.result, stream); };
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
  prepare_output(spec, cache);
  PreparedCase prepared{cache.device_src.view(), cache.device_dst.view(), cache.device_result.get(), 0.0};
  if (spec.data_launch) {
    check_data_case(spec, cache, prepared, stream);
    return prepared;
  }

  // All bytes 0xFF: NaN for f32, the maximum for u8/u16, so an unwritten pixel fails
  // the check (blurring random data lands near mid-range, far from the maximum).
  const gpufilter::ImageView& dst = prepared.dst;
  GPUFILTER_CUDA_CHECK(cudaMemset2DAsync(dst.data, dst.pitch, 0xFF, dst.row_bytes(),
                                         static_cast<std::size_t>(dst.height), stream));
  spec.launch(prepared.src, prepared.dst, stream);
  gpufilter::copy_image_async(prepared.dst, cache.host_dst.view(), stream);
  GPUFILTER_CUDA_CHECK(cudaStreamSynchronize(stream));

  const gpufilter::HostImage& reference = reference_for(spec, cache);
  const gpufilter::testing::Difference diff = gpufilter::testing::compare(cache.host_dst.view(), reference.view(), spec.tolerance);
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

std::string params_text(const gpufilter::ParamValues& params) {
  std::ostringstream text;
  text.precision(17);
  for (const auto& [name, value] : params) {
    text << (text.tellp() > 0 ? "/" : "") << name << '=';
    std::visit([&](const auto& v) {
      if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::vector<double>>) {
        for (double item : v) text << item << 'x';
      } else {
        text << v;
      }
    }, value);
  }
  return text.str();
}

}  // namespace bench
