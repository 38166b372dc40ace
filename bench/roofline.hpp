#pragma once
#include <string>

namespace bench {

// Times the library's copy op (vectorized variant) on an 8K u8x4 image, 265 MB moved
// per launch, five times an H100's L2: the DRAM bandwidth a streaming kernel of this
// library actually reaches on this GPU, the yardstick of every row's `roofline`.
// Records it in Results::global() and returns true; false, with `why`, when the copy
// op is missing or fails its check.
bool measure_copy_roofline(std::string& why);

}  // namespace bench
