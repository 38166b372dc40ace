#pragma once
// The table every case writes its outcome to. Ratios between rows are computed from
// it only once every case has run, so the order the cases run in does not matter,
// and a ratio is simply absent when --benchmark_filter left its partner out.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bench {

struct CaseResult {
  std::string name;  // the benchmark's name, e.g. "blur/tiled/u8x4/8K/reflect101"
  std::string op, variant, format, size, border;  // border: "" for ops without one
  std::string peer;  // "" for the library's own variants, else the peer ("npp", "cudaMemcpy2D")
  std::string data = "random";  // the source's pattern (BenchOptions::data): rows compare within one
  // The resolved parameters the row runs, as text: a row is compared with naive and peer
  // rows of the same parameters only (an op's default call beside its bench shape).
  std::string params;
  bool ok = false;
  std::string error;  // why the case failed; empty when ok
  double median_us = 0.0;
  double gbps = 0.0;       // op.bytes_moved / median time
  double max_error = 0.0;  // largest |gpu - reference| seen in the check
};

struct Ratios {
  std::optional<double> roofline;  // this row's GB/s over the copy roofline's
  std::optional<double> vs_naive;  // the naive variant's time over this row's: > 1 is faster
  std::optional<double> vs_peer;   // the peer's time over this row's: > 1 is faster
  std::string peer;                // which peer vs_peer compares with
};

class Results {
 public:
  static Results& global();

  void set_roofline(double gbps, const std::string& how);
  void set_no_roofline(const std::string& why) {
    roofline_gbps_.reset();
    roofline_how_ = why;
  }
  std::optional<double> roofline_gbps() const { return roofline_gbps_; }
  const std::string& roofline_how() const { return roofline_how_; }

  // Names the variant each op's vs_naive compares with.
  void set_baseline(const std::string& op, const std::string& variant) { baselines_[op] = variant; }

  // Adds a row, replacing an earlier one of the same name (--benchmark_repetitions).
  void record(const CaseResult& row);
  const std::vector<CaseResult>& rows() const { return rows_; }
  const CaseResult* find(const std::string& name) const;
  Ratios ratios(const CaseResult& row) const;
  bool any_failed() const;

 private:
  std::vector<CaseResult> rows_;
  std::map<std::string, std::string> baselines_;
  std::optional<double> roofline_gbps_;
  std::string roofline_how_;
};

}  // namespace bench
