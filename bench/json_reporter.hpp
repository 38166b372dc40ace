#pragma once
// --benchmark_out=FILE --benchmark_out_format=json carries every counter of every
// row: median_us, GB/s, max_err and roofline from the case itself, and vs_naive and
// vs_<peer>, which need other rows, added after the last case has run. To add them,
// Google Benchmark's JSON reporter is wrapped: runs are held back and written at the end.
#include <benchmark/benchmark.h>

#include <vector>

namespace bench {

class RatioJsonReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  benchmark::JSONReporter json_;
  std::vector<Run> held_;
};

// Whether this command line (or BENCHMARK_OUT / BENCHMARK_OUT_FORMAT) asks for a JSON
// file; only then may a file reporter be handed to RunSpecifiedBenchmarks. Call it
// before benchmark::Initialize, which removes the flags from argv.
bool json_file_requested(int argc, char** argv);

}  // namespace bench
