#include "codecs/parallel_tasks.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace gpufilter::io {

unsigned codec_threads(unsigned budget) {
  if (budget > 0) return budget;
  return std::max(1u, std::thread::hardware_concurrency());
}

void run_tasks(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& task) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    for (std::size_t i = next++; i < count && !failed; i = next++) {
      try {
        task(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        failed = true;
      }
    }
  };
  const std::size_t helpers = std::min<std::size_t>(count, std::max(1u, threads)) - (count > 0 ? 1 : 0);
  std::vector<std::thread> workers;
  workers.reserve(helpers);
  for (std::size_t t = 0; t < helpers; ++t) {
    try {
      workers.emplace_back(work);
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones started (and this one) do the rest
    }
  }
  work();
  for (std::thread& worker : workers) worker.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace gpufilter::io
