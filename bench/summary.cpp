#include "summary.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "gpufilter/device.hpp"
#include "results.hpp"

namespace bench {
namespace {

std::string ratio_text(const std::optional<double>& ratio, const std::string& suffix = "") {
  if (!ratio) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.2fx%s", *ratio, suffix.c_str());
  return text;
}

// "54.3%" of the copy roofline, or "-" where it was not measured.
std::string roofline_text(const Ratios& ratios) {
  if (!ratios.roofline) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * *ratios.roofline);
  return text;
}

// "3.16x npp", or "-" without a peer.
std::string peer_text(const Ratios& ratios) {
  return ratio_text(ratios.vs_peer, ratios.vs_peer ? " " + ratios.peer : "");
}

// The headline: each op as `gpufilter OP IN OUT` runs it (the rows labelled "default"),
// its share of the copy roofline and its speed over the peer at the same parameters.
void print_defaults(std::FILE* out, const Results& results, int width) {
  bool any = false;
  for (const auto& row : results.rows()) {
    if (row.variant != "default" || !row.peer.empty()) continue;
    if (!any)
      std::fprintf(out, "Defaults (each op as `gpufilter OP IN OUT` runs it):\n%-*s  %13s  %10s  %s\n", width, "case",
                   "median µs", "% roofline", "vs peer");
    any = true;
    if (!row.ok) {
      std::fprintf(out, "%-*s  FAILED: %s\n", width, row.name.c_str(), row.error.c_str());
      continue;
    }
    const Ratios ratios = results.ratios(row);
    std::fprintf(out, "%-*s  %12.1f  %10s  %s\n", width, row.name.c_str(), row.median_us,
                 roofline_text(ratios).c_str(), peer_text(ratios).c_str());
  }
  if (any) std::fprintf(out, "\nEvery row:\n");
}

}  // namespace

void print_summary(std::FILE* out) {
  const Results& results = Results::global();
  std::fprintf(out, "\n== gpufilter-bench summary ==\n");
  std::fprintf(out, "device: %s\n", gpufilter::device_description().c_str());
  if (const auto roofline = results.roofline_gbps())
    std::fprintf(out, "copy roofline: %.1f GB/s (%s, median, L2 flushed before each launch)\n", *roofline,
                 results.roofline_how().c_str());
  else
    std::fprintf(out, "copy roofline: not measured (%s)\n", results.roofline_how().c_str());
  std::fprintf(out, "vs naive / vs peer: the other row's median time over this row's (> 1: this row is faster)\n\n");

  int width = 4;
  for (const auto& row : results.rows()) width = std::max(width, static_cast<int>(row.name.size()));
  print_defaults(out, results, width);
  // "median µs" is 10 bytes but 9 columns wide: one more byte of field width.
  std::fprintf(out, "%-*s  %13s  %9s  %10s  %8s  %s\n", width, "case", "median µs", "GB/s", "% roofline",
               "vs naive", "vs peer");
  int failed = 0;
  for (const auto& row : results.rows()) {
    if (!row.ok) {
      ++failed;
      std::fprintf(out, "%-*s  FAILED: %s\n", width, row.name.c_str(), row.error.c_str());
      continue;
    }
    const Ratios ratios = results.ratios(row);
    std::fprintf(out, "%-*s  %12.1f  %9.1f  %10s  %8s  %s\n", width, row.name.c_str(), row.median_us, row.gbps,
                 roofline_text(ratios).c_str(), ratio_text(ratios.vs_naive).c_str(), peer_text(ratios).c_str());
  }
  std::fprintf(out, "\n%zu cases, %d failed\n", results.rows().size(), failed);
}

}  // namespace bench
