#pragma once
// Refusing an image that cannot fit in host memory before allocating it: a clear message
// naming the size and the memory needed, rather than a failed allocation deep in a codec
// or the kernel's out-of-memory killer.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace gpufilter::io {

// Memory that can be allocated without swapping: MemAvailable from /proc/meminfo, else
// the free pages; nullopt when neither can be read.
std::optional<std::uint64_t> available_host_memory();

// The product of `factors`, or the largest uint64 where it would overflow (a PNG header
// may claim 2^31 x 2^31 pixels).
std::uint64_t saturating_product(std::initializer_list<std::uint64_t> factors);

// "1.5 GiB", "640.0 MiB"
std::string byte_count(std::uint64_t bytes);

// Throws IoError(Runtime) "not enough host memory for <what>: <bytes> needed, ...
// available" when the memory known to be available is less than `bytes`.
void require_host_memory(std::uint64_t bytes, const std::string& what);

}  // namespace gpufilter::io
