#pragma once
// The rows of an intermediate image (the horizontal pass of a separable filter) that a
// sweep down the output needs, computed on demand and dropped once no longer needed:
// at most `capacity` rows in memory instead of a whole image of doubles, so the
// reference's memory stays near its input and output. A row's values do not depend on
// when it was computed, so results are the same as with the whole image kept.
#include <algorithm>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <vector>

namespace gpufilter::reference {

class RowCache {
 public:
  // `compute(row, out)` writes the `row_values` values of intermediate row `row`.
  RowCache(int rows, std::size_t row_values, int capacity, std::function<void(int, double*)> compute)
      : row_values_(row_values),
        capacity_(static_cast<std::size_t>(capacity)),
        compute_(std::move(compute)),
        by_row_(static_cast<std::size_t>(rows), nullptr) {}

  // Makes every row listed in `needed` readable through row() (negative entries are
  // skipped); rows not listed may be dropped. At most `capacity` distinct rows.
  void hold(const std::vector<int>& needed) {
    for (int index : needed) {
      if (index < 0 || by_row_[static_cast<std::size_t>(index)] != nullptr) continue;
      const std::size_t slot = slot_to_fill(needed);
      if (slot_row_[slot] >= 0) by_row_[static_cast<std::size_t>(slot_row_[slot])] = nullptr;
      compute_(index, slots_[slot].data());
      slot_row_[slot] = index;
      by_row_[static_cast<std::size_t>(index)] = slots_[slot].data();
    }
  }

  const double* row(int index) const { return by_row_[static_cast<std::size_t>(index)]; }

 private:
  // A new slot while under capacity, else one holding a row that is not needed now.
  std::size_t slot_to_fill(const std::vector<int>& needed) {
    if (slots_.size() < capacity_) {
      slots_.emplace_back(row_values_);
      slot_row_.push_back(-1);
      return slots_.size() - 1;
    }
    for (std::size_t slot = 0; slot < slots_.size(); ++slot) {
      if (std::find(needed.begin(), needed.end(), slot_row_[slot]) == needed.end()) return slot;
    }
    throw std::logic_error("RowCache: more distinct rows needed at once than its capacity");
  }

  std::size_t row_values_;
  std::size_t capacity_;
  std::function<void(int, double*)> compute_;
  std::vector<std::vector<double>> slots_;
  std::vector<int> slot_row_;             // the row each slot holds, -1 for none
  std::vector<const double*> by_row_;     // each row's slot, nullptr when not held
};

}  // namespace gpufilter::reference
