#include "results.hpp"

#include <algorithm>

namespace bench {

Results& Results::global() {
  static Results results;
  return results;
}

void Results::set_roofline(double gbps, const std::string& how) {
  roofline_gbps_ = gbps;
  roofline_how_ = how;
}

void Results::record(const CaseResult& row) {
  auto same = std::find_if(rows_.begin(), rows_.end(), [&](const CaseResult& r) { return r.name == row.name; });
  if (same != rows_.end())
    *same = row;
  else
    rows_.push_back(row);
}

const CaseResult* Results::find(const std::string& name) const {
  auto it = std::find_if(rows_.begin(), rows_.end(), [&](const CaseResult& r) { return r.name == name; });
  return it == rows_.end() ? nullptr : &*it;
}

Ratios Results::ratios(const CaseResult& row) const {
  Ratios ratios;
  if (!row.ok || row.median_us <= 0.0) return ratios;
  if (roofline_gbps_ && *roofline_gbps_ > 0.0) ratios.roofline = row.gbps / *roofline_gbps_;

  auto same_image = [&](const CaseResult& r) {
    return r.ok && r.median_us > 0.0 && r.op == row.op && r.format == row.format && r.size == row.size &&
           r.data == row.data && r.params == row.params;
  };
  // The naive row with the same border where there is one (the border changes the
  // work), else any border: a peer such as NPP supports only its own border.
  const auto baseline = baselines_.find(row.op);
  if (baseline != baselines_.end() && !(row.peer.empty() && row.variant == baseline->second)) {
    const CaseResult* naive = nullptr;
    for (const auto& r : rows_) {
      if (!same_image(r) || !r.peer.empty() || r.variant != baseline->second) continue;
      if (naive == nullptr || (r.border == row.border && naive->border != row.border)) naive = &r;
    }
    if (naive != nullptr) ratios.vs_naive = naive->median_us / row.median_us;
  }
  if (row.peer.empty()) {
    for (const auto& r : rows_) {
      if (same_image(r) && !r.peer.empty()) {
        ratios.vs_peer = r.median_us / row.median_us;
        ratios.peer = r.peer;
        break;
      }
    }
  }
  return ratios;
}

bool Results::any_failed() const {
  return std::any_of(rows_.begin(), rows_.end(), [](const CaseResult& r) { return !r.ok; });
}

}  // namespace bench
