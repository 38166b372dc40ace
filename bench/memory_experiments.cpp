// gpufilter-memory-bench: main, flags, timing with checks, tables, buffers.
#include "memory_experiments.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <thread>

#include "gpufilter/device.hpp"
#include "gpufilter/error.hpp"
#include "unoptimized_build.hpp"

namespace bench::memory {

Context::Context(const Options& opts) : options(opts) {
  exec.stream = stream.get();
  exec.sync_after_launch = false;
}

void Context::upload(const gpufilter::HostImage& host, const gpufilter::ImageView& device) {
  gpufilter::copy_image_async(host.view(), device, raw_stream());
  stream.synchronize();
}

std::optional<double> Context::measure(const std::string& name, std::size_t bytes,
                                       const std::function<void()>& launch,
                                       const std::function<std::string()>& check) {
  const bool large = bytes >= kLargeCaseBytes;
  const int warmup = large ? std::min(options.warmup, 1) : options.warmup;
  const int iterations = large ? std::min(options.iterations, kLargeCaseIterations) : options.iterations;
  try {
    const std::vector<double> samples = time_launches(raw_stream(), launch, warmup, iterations, flusher, timer);
    if (const std::string why = check(); !why.empty()) {
      fail(name, why);
      return std::nullopt;
    }
    return median(samples);
  } catch (const std::exception& e) {
    fail(name, e.what());
    return std::nullopt;
  }
}

std::optional<double> Context::measure_samples(const std::string& name, int samples,
                                               const std::function<double()>& sample,
                                               const std::function<std::string()>& check) {
  try {
    sample();  // a warm-up, discarded: the first launch on fresh memory pays one-time costs
    std::vector<double> times;
    for (int i = 0; i < samples; ++i) times.push_back(sample());
    if (const std::string why = check(); !why.empty()) {
      fail(name, why);
      return std::nullopt;
    }
    return median(times);
  } catch (const std::exception& e) {
    fail(name, e.what());
    return std::nullopt;
  }
}

void Context::fail(const std::string& name, const std::string& why) {
  failures.push_back(name + ": " + why);
  std::fprintf(stderr, "FAILED %s: %s\n", name.c_str(), why.c_str());
}

void Table::print(const std::string& title, const std::string& notes) const {
  std::printf("\n## %s\n\n", title.c_str());
  const auto line = [](const std::vector<std::string>& cells) {
    std::string text = "|";
    for (const std::string& cell : cells) text += " " + cell + " |";
    std::printf("%s\n", text.c_str());
  };
  line(header_);
  line(std::vector<std::string>(header_.size(), "---"));
  for (const auto& row : rows_) line(row);
  if (!notes.empty()) std::printf("\n%s\n", notes.c_str());
  std::fflush(stdout);
}

std::string format_time(std::optional<double> ms) {
  if (!ms) return "FAILED";
  char text[32];
  if (*ms < 1.0) std::snprintf(text, sizeof text, "%.1f µs", *ms * 1e3);
  else std::snprintf(text, sizeof text, "%.2f ms", *ms);
  return text;
}

std::string format_gbps(std::size_t bytes, std::optional<double> ms) {
  if (!ms || *ms <= 0.0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", static_cast<double>(bytes) / (*ms * 1e-3) / 1e9);
  return text;
}

std::string format_cell(std::size_t bytes, std::optional<double> ms) {
  if (!ms) return "FAILED";
  return format_time(ms) + ", " + format_gbps(bytes, ms) + " GB/s";
}

std::string format_ratio(std::optional<double> numerator_ms, std::optional<double> denominator_ms) {
  if (!numerator_ms || !denominator_ms || *denominator_ms <= 0.0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", *numerator_ms / *denominator_ms);
  return text;
}

std::size_t free_device_bytes() {
  std::size_t free_bytes = 0, total_bytes = 0;
  GPUFILTER_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

FlatBuffer::FlatBuffer(int width, int height, gpufilter::PixelFormat format, bool managed) {
  view_.width = width;
  view_.height = height;
  view_.format = format;
  view_.pitch = static_cast<std::size_t>(width) * format.pixel_bytes();
  void* data = nullptr;
  const std::size_t size = view_.pitch * static_cast<std::size_t>(height);
  if (managed) GPUFILTER_CUDA_CHECK(cudaMallocManaged(&data, size));
  else GPUFILTER_CUDA_CHECK(cudaMalloc(&data, size));
  view_.data = data;
}

FlatBuffer::~FlatBuffer() {
  if (view_.data != nullptr) cudaFree(view_.data);
}

void poison(Context& context, const gpufilter::ImageView& view) {
  GPUFILTER_CUDA_CHECK(cudaMemset2DAsync(view.data, view.pitch, kPoison, view.row_bytes(),
                                         static_cast<std::size_t>(view.height), context.raw_stream()));
}

void download(Context& context, const gpufilter::ImageView& device, const gpufilter::HostImage& host) {
  gpufilter::copy_image_async(device, host.view(), context.raw_stream());
  context.stream.synchronize();
}

std::string check_rows(int rows, const std::function<std::string(int y)>& check_row) {
  const int bands = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 32u));
  const int per_band = (rows + bands - 1) / bands;
  std::vector<std::string> answers(static_cast<std::size_t>(bands));
  std::vector<std::thread> threads;
  for (int b = 0; b < bands; ++b)
    threads.emplace_back([&, b] {
      const int end = std::min(rows, (b + 1) * per_band);
      for (int y = b * per_band; y < end && answers[static_cast<std::size_t>(b)].empty(); ++y)
        answers[static_cast<std::size_t>(b)] = check_row(y);
    });
  for (std::thread& t : threads) t.join();
  for (const std::string& answer : answers)
    if (!answer.empty()) return answer;
  return "";
}

namespace {
std::string mismatch(int y, std::size_t x, unsigned actual, unsigned expected) {
  return "row " + std::to_string(y) + ", byte " + std::to_string(x) + ": " + std::to_string(actual) + ", expected " +
         std::to_string(expected);
}
}  // namespace

std::string compare_bytes(const gpufilter::ImageView& actual, std::size_t x, const gpufilter::ImageView& expected,
                          std::size_t expected_x, std::size_t bytes, bool guarded) {
  const std::size_t row_bytes = actual.row_bytes();
  return check_rows(actual.height, [&](int y) -> std::string {
    const auto* a = actual.row<const unsigned char>(y);
    const auto* e = expected.row<const unsigned char>(y) + expected_x;
    if (std::memcmp(a + x, e, bytes) != 0) {
      std::size_t i = 0;
      while (a[x + i] == e[i]) ++i;
      return mismatch(y, x + i, a[x + i], e[i]);
    }
    if (!guarded) return "";
    const auto untouched = [&](std::size_t from, std::size_t to) -> std::string {
      for (std::size_t i = from; i < to; ++i)
        if (a[i] != kPoison)
          return "row " + std::to_string(y) + ", byte " + std::to_string(i) + " outside the view was written";
      return "";
    };
    if (std::string why = untouched(0, x); !why.empty()) return why;
    return untouched(x + bytes, row_bytes);
  });
}

std::string compare_inverted(const gpufilter::ImageView& actual, const gpufilter::ImageView& source, unsigned mask,
                             int plane_rows) {
  const std::size_t row_bytes = source.row_bytes();
  const std::size_t pixel_bytes = source.format.pixel_bytes();
  return check_rows(source.height, [&](int y) -> std::string {
    const auto* a = actual.row<const unsigned char>(y);
    const auto* s = source.row<const unsigned char>(y);
    for (std::size_t i = 0; i < row_bytes; ++i) {
      const std::size_t channel = plane_rows > 0 ? static_cast<std::size_t>(y / plane_rows) : i % pixel_bytes;
      const unsigned expected = (mask >> channel) & 1u ? 255u - s[i] : s[i];
      if (a[i] != expected) return mismatch(y, i, a[i], expected);
    }
    return "";
  });
}

namespace {

struct Experiment {
  const char* name;
  void (*run)(Context&);
  const char* what;
};
constexpr Experiment kExperiments[] = {
    {"offsets", run_offsets, "u8 copies whose rows start 0..16 bytes past a 16-byte boundary"},
    {"tails", run_tails, "row widths that are not a multiple of 16 bytes"},
    {"flat", run_flat, "8K RGBA and 1 GiB flat buffers: copy kernels vs cudaMemcpyAsync"},
    {"uploads", run_uploads, "pinned + cudaMemcpyAsync vs managed memory, then invert"},
    {"layouts", run_layouts, "invert on interleaved (AoS) vs planar (SoA) 8K RGBA"},
    {"blocks", run_block_sizes, "threads per block for the int4, unroll4 and grid_stride copies"},
    {"transpose_bounds", run_transpose_bounds, "copy_row and copy_col, the naive transpose's bounds, 8K"},
    {"resize_double", run_resize_double, "resize 2x linear, 8K 8-bit: integer vs float window kernel"},
};

void print_help() {
  std::printf(
      "usage: gpufilter-memory-bench [--only=NAME,...] [--iterations=N] [--warmup=N]\n"
      "  --only=LIST      experiments to run (default: all)\n"
      "  --iterations=N   timed launches per case (default 20; 1 GiB cases at most 5)\n"
      "  --warmup=N       untimed launches before timing (default 3)\n"
      "experiments:\n");
  for (const Experiment& e : kExperiments) std::printf("  %-16s %s\n", e.name, e.what);
}

int positive(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < 1 || value > 100000)
    throw std::invalid_argument(flag + " takes a whole number from 1 to 100000, got '" + text + "'");
  return static_cast<int>(value);
}

// Returns false after --help.
bool parse(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&](const char* flag) -> std::optional<std::string> {
      const std::string prefix = std::string(flag) + "=";
      if (arg.rfind(prefix, 0) == 0) return arg.substr(prefix.size());
      return std::nullopt;
    };
    if (arg == "--help" || arg == "-h") {
      print_help();
      return false;
    } else if (const auto n = value("--iterations")) {
      options.iterations = positive("--iterations", *n);
    } else if (const auto w = value("--warmup")) {
      options.warmup = positive("--warmup", *w);
    } else if (const auto list = value("--only")) {
      std::size_t start = 0;
      while (start <= list->size()) {
        const std::size_t comma = std::min(list->find(',', start), list->size());
        const std::string name = list->substr(start, comma - start);
        const bool known = std::any_of(std::begin(kExperiments), std::end(kExperiments),
                                       [&](const Experiment& e) { return name == e.name; });
        if (!known) throw std::invalid_argument("no experiment named '" + name + "'");
        options.only.push_back(name);
        start = comma + 1;
      }
    } else {
      throw std::invalid_argument("unknown argument '" + arg + "'");
    }
  }
  return true;
}

bool selected(const Options& options, const char* name) {
  return options.only.empty() || std::find(options.only.begin(), options.only.end(), name) != options.only.end();
}

}  // namespace
}  // namespace bench::memory

int main(int argc, char** argv) {
  using namespace bench::memory;
  Options options;
  try {
    if (!parse(argc, argv, options)) return 0;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "gpufilter-memory-bench: %s (see --help)\n", e.what());
    return 2;
  }
  // Unlike gpufilter-bench (a smoke test in CI), this program exists only to measure:
  // without a GPU it says so and fails.
  if (!gpufilter::has_device()) {
    std::fprintf(stderr, "gpufilter-memory-bench: no CUDA device (%s); nothing measured\n",
                 gpufilter::no_device_reason().c_str());
    return 1;
  }
  if (bench::refuses_unoptimized_build("gpufilter-memory-bench")) return 2;
  try {
    Context context(options);
    std::printf("# gpufilter-memory-bench on %s\n\n", gpufilter::device_description().c_str());
    std::printf("Median of %d timed launches (%d warm-up; 1 GiB cases: %d and 1), L2 (%zu MiB scratch) "
                "flushed before each; GB/s counts bytes read once and written once unless a table says otherwise. "
                "Every result is checked against its source after timing: a wrong one reads FAILED.\n",
                options.iterations, options.warmup, std::min(options.iterations, kLargeCaseIterations),
                context.flusher.bytes() >> 20);
    for (const Experiment& e : kExperiments)
      if (selected(options, e.name)) e.run(context);
    if (!context.failures.empty()) {
      std::printf("\n%zu case(s) FAILED:\n", context.failures.size());
      for (const std::string& failure : context.failures) std::printf("- %s\n", failure.c_str());
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpufilter-memory-bench: %s\n", e.what());
    return 1;
  }
}
