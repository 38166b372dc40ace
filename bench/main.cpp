// gpufilter-bench: Google Benchmark cases generated from the operation registry, each
// checked against the CPU reference before it is timed, plus the copy roofline and
// the peers, then a plain summary table. See bench/README.md for the flags.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "bench_case.hpp"
#include "gpufilter/device.hpp"
#include "gpufilter/registry.hpp"
#include "json_reporter.hpp"
#include "options.hpp"
#include "registry_cases.hpp"
#include "results.hpp"
#include "roofline.hpp"
#include "summary.hpp"
#include "unoptimized_build.hpp"

namespace {

void print_help() {
  bench::print_bench_help();
  benchmark::PrintDefaultHelp();
}

// Names given to --ops that no registered op has.
std::string unknown_ops(const bench::BenchOptions& options) {
  std::string unknown;
  for (const auto& name : options.ops)
    if (gpufilter::find_operation(name) == nullptr) unknown += (unknown.empty() ? "" : ", ") + name;
  return unknown;
}

std::string known_ops() {
  std::string names;
  for (const auto& op : gpufilter::operations()) names += (names.empty() ? "" : ", ") + op.name;
  return names;
}

int run(const bench::BenchOptions& options, bool json_file) {
  // Members create the stream, the L2 flush buffer and the events on the current device.
  auto context = std::make_unique<bench::BenchContext>(options);
  bench::set_bench_context(context.get());

  const std::string device = gpufilter::device_description();
  std::printf("gpufilter-bench on %s\n", device.c_str());
  std::printf("%d warm-up + %d timed launches per case, median reported, L2 (%zu MiB scratch) flushed before each\n",
              options.warmup, options.iterations, context->flusher.bytes() >> 20);
  std::string why;
  bench::Results& results = bench::Results::global();
  if (bench::measure_copy_roofline(why)) {
    std::printf("copy roofline: %.1f GB/s (%s)\n", *results.roofline_gbps(), results.roofline_how().c_str());
  } else {
    results.set_no_roofline(why);
    std::printf("copy roofline: not measured: %s\n", why.c_str());
  }
  std::fflush(stdout);

  benchmark::AddCustomContext("gpufilter_device", device);
  if (const auto roofline = results.roofline_gbps())
    benchmark::AddCustomContext("gpufilter_copy_roofline_GBps", std::to_string(*roofline));

  const int cases = bench::register_registry_cases(options);
  if (cases == 0) std::printf("gpufilter-bench: no case selected\n");
  bench::RatioJsonReporter json_reporter;
  benchmark::RunSpecifiedBenchmarks(nullptr, json_file ? &json_reporter : nullptr);

  bench::print_summary(stdout);
  const bool failed = results.any_failed() || !results.roofline_gbps();
  bench::release_case_cache();
  bench::set_bench_context(nullptr);
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  bench::BenchOptions options;
  try {
    options = bench::parse_bench_options(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "gpufilter-bench: %s (see --help)\n", e.what());
    return 2;
  }
  const bool json_file = bench::json_file_requested(argc, argv);
  benchmark::Initialize(&argc, argv, print_help);  // exits after printing --help
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  if (const std::string unknown = unknown_ops(options); !unknown.empty()) {
    std::fprintf(stderr, "gpufilter-bench: no op named %s (ops: %s)\n", unknown.c_str(), known_ops().c_str());
    return 2;
  }

  // Without a GPU there is nothing to time; a skip, not a failure, so CI machines
  // without one can still run the binary as a smoke test.
  if (!gpufilter::has_device()) {
    std::printf("gpufilter-bench: no CUDA device (%s); nothing to measure\n", gpufilter::no_device_reason().c_str());
    return 0;
  }
  if (bench::refuses_unoptimized_build("gpufilter-bench")) return 2;

  int status = 0;
  try {
    status = run(options, json_file);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpufilter-bench: %s\n", e.what());
    status = 1;
  }
  benchmark::Shutdown();
  return status;
}
