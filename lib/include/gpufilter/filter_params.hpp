#pragma once
/// @file
/// The FilterSpec a registered convolution op makes of its parameters: what
/// `gpufilter blur --sigma 3` runs, for code that runs the same filter another way (the
/// lab's kernels) or inspects it. Host only: no GPU, never synchronizes.
#include <string>

#include "gpufilter/filter_spec.hpp"
#include "gpufilter/registry.hpp"

namespace gpufilter {

/// The validated FilterSpec of `op` ("blur", "box", "sharpen", "edge", "emboss" or
/// "convolve") with `values` resolved by the op (Operation::resolve). Throws
/// Error(InvalidArgument) for another op or parameters the op refuses.
FilterSpec filter_spec_of(const std::string& op, const ParamValues& values);

}  // namespace gpufilter
