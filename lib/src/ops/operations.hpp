#pragma once
// One factory per op (ops/operation_list.hpp names them); each lives beside its op's
// entry point.
#include <string>
#include <vector>

#include "gpufilter/registry.hpp"

namespace gpufilter::ops {

#define GPUFILTER_OPERATION(name) Operation make_##name##_operation();
#define GPUFILTER_OPERATIONS(name) std::vector<Operation> make_##name##_operations();
#include "ops/operation_list.hpp"
#undef GPUFILTER_OPERATION
#undef GPUFILTER_OPERATIONS

// "c0", "c1", ...: the data ops' names for channels.
std::vector<std::string> channel_labels(int channels);

}  // namespace gpufilter::ops
