#pragma once
// The last few plans made from a filter factor, so a launcher does not redo host work
// (tens of microseconds) for the same mask call after call. Thread-safe.
#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace gpufilter::kernels {

template <class Plan, std::size_t kEntries = 8>
class RecentPlans {
 public:
  // The plan for `factor`: a kept one, else make(factor), kept in place of the oldest.
  template <class Make>
  Plan get(const std::vector<float>& factor, Make&& make) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (const Entry& e : entries_)
        if (e.factor == factor) return e.plan;
    }
    Plan plan = make(factor);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() == kEntries) entries_.erase(entries_.begin());
    entries_.push_back(Entry{factor, plan});
    return plan;
  }

 private:
  struct Entry {
    std::vector<float> factor;
    Plan plan;
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace gpufilter::kernels
