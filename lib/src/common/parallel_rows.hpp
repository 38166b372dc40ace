#pragma once
// Splits rows [0, rows) across the machine's cores; the reference is simple loops,
// and this keeps 8K checks in the bench and tests to seconds.
#include <functional>

namespace gpufilter::reference {

void parallel_rows(int rows, const std::function<void(int begin, int end)>& body);

}  // namespace gpufilter::reference
