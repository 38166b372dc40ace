#pragma once
#include <cstdio>

namespace bench {

// The plain table printed after Google Benchmark's own output: one row per case with
// its median time, GB/s, share of the copy roofline and speedups over the naive
// variant and the peer, the device and the roofline on top, failures spelled out.
void print_summary(std::FILE* out);

}  // namespace bench
