#include "files/host_memory.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include "gpufilter/io/io_error.hpp"

namespace gpufilter::io {

std::optional<std::uint64_t> available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  const long pages = ::sysconf(_SC_AVPHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
  return std::nullopt;
}

std::uint64_t saturating_product(std::initializer_list<std::uint64_t> factors) {
  std::uint64_t product = 1;
  for (std::uint64_t factor : factors) {
    if (__builtin_mul_overflow(product, factor, &product)) return std::numeric_limits<std::uint64_t>::max();
  }
  return product;
}

std::string byte_count(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  if (unit == 0) {
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  }
  return text;
}

void require_host_memory(std::uint64_t bytes, const std::string& what) {
  const std::optional<std::uint64_t> available = available_host_memory();
  if (!available || bytes <= *available) return;
  throw IoError(Fault::Runtime, "not enough host memory for " + what + ": " + byte_count(bytes) +
                                        " needed, " + byte_count(*available) + " available");
}

}  // namespace gpufilter::io
