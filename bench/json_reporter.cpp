#include "json_reporter.hpp"

#include <cstdlib>
#include <string>

#include "results.hpp"

namespace bench {

bool RatioJsonReporter::ReportContext(const Context& context) {
  // Google Benchmark sets the file stream on this reporter just before this call.
  json_.SetOutputStream(&GetOutputStream());
  json_.SetErrorStream(&GetErrorStream());
  return json_.ReportContext(context);
}

void RatioJsonReporter::ReportRuns(const std::vector<Run>& runs) { held_.insert(held_.end(), runs.begin(), runs.end()); }

void RatioJsonReporter::Finalize() {
  const Results& results = Results::global();
  for (Run& run : held_) {
    if (run.run_type != Run::RT_Iteration) continue;
    const CaseResult* row = results.find(run.run_name.function_name);
    if (row == nullptr) continue;
    const Ratios ratios = results.ratios(*row);
    if (ratios.vs_naive) run.counters["vs_naive"] = benchmark::Counter(*ratios.vs_naive);
    if (ratios.vs_peer) run.counters["vs_" + ratios.peer] = benchmark::Counter(*ratios.vs_peer);
  }
  if (!held_.empty()) json_.ReportRuns(held_);
  json_.Finalize();
  held_.clear();
}

bool json_file_requested(int argc, char** argv) {
  // Flags override the environment, as in Google Benchmark; the last flag wins.
  const char* env_out = std::getenv("BENCHMARK_OUT");
  const char* env_format = std::getenv("BENCHMARK_OUT_FORMAT");
  std::string out = env_out != nullptr ? env_out : "";
  std::string format = env_format != nullptr ? env_format : "json";
  const std::string out_flag = "--benchmark_out=";
  const std::string format_flag = "--benchmark_out_format=";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(out_flag, 0) == 0) out = arg.substr(out_flag.size());
    if (arg.rfind(format_flag, 0) == 0) format = arg.substr(format_flag.size());
  }
  return !out.empty() && format == "json";
}

}  // namespace bench
