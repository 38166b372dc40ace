#pragma once
// The last few plans made from a key (by default a filter factor), so a caller does not
// redo host work (tens of microseconds and more) for the same input call after call.
// Thread-safe; Key needs operator==.
#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace gpufilter::kernels {

template <class Plan, std::size_t kEntries = 8, class Key = std::vector<float>>
class RecentPlans {
 public:
  // The plan for `key`: a kept one, else make(key), kept in place of the oldest.
  template <class Make>
  Plan get(const Key& key, Make&& make) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (const Entry& e : entries_)
        if (e.key == key) return e.plan;
    }
    Plan plan = make(key);
    const std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() == kEntries) entries_.erase(entries_.begin());
    entries_.push_back(Entry{key, plan});
    return plan;
  }

 private:
  struct Entry {
    Key key;
    Plan plan;
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace gpufilter::kernels
