#pragma once
// Where the reference reads for a coordinate outside [0, n). Written as the
// definitions read (step by step reflections), apart from the kernels' closed forms,
// so the two can check each other.
#include "gpufilter/border.hpp"

namespace gpufilter::reference {

// The index in [0, n) that coordinate i reads, or -1 for "use the constant".
int border_index(int i, int n, BorderMode mode);

}  // namespace gpufilter::reference
