#pragma once
// Asking the kernel for transparent huge pages under a large fresh buffer: a 24 MP image
// is 72 MB, some 18,000 page faults at 4 KiB, each a trip into the kernel, but 36 at
// 2 MiB. Only where the system leaves it to programs (THP "madvise" or "always"); a no-op
// elsewhere.
#include <cstddef>

namespace gpufilter::cli {

// Advises huge pages for the 2 MiB-aligned pages wholly inside [data, data + size); call
// before the buffer is first written. Failures are ignored: it is a hint.
void advise_huge_pages(void* data, std::size_t size) noexcept;

}  // namespace gpufilter::cli
