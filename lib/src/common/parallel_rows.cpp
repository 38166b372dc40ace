#include "common/parallel_rows.hpp"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace gpufilter::reference {

void parallel_rows(int rows, const std::function<void(int, int)>& body) {
  const int workers = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 32);
  const int chunks = std::min(workers, std::max(1, rows / 64));
  if (chunks <= 1) {
    body(0, rows);
    return;
  }
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(chunks));
  for (int i = 0; i < chunks; ++i) {
    threads.emplace_back([&, i] {
      try {
        body(static_cast<int>(static_cast<long long>(rows) * i / chunks),
             static_cast<int>(static_cast<long long>(rows) * (i + 1) / chunks));
      } catch (...) {
        errors[static_cast<std::size_t>(i)] = std::current_exception();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace gpufilter::reference
