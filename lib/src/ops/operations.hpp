#pragma once
// How an op joins the registry: its own file registers its factory,
//   GPUFILTER_REGISTER_OPERATION(make_median_operation);
// at namespace scope, and operations() (registry.cpp) calls every registered factory
// once, on its first call. No list names the ops, so adding one touches no shared file.
#include <string>
#include <vector>

#include "gpufilter/registry.hpp"

namespace gpufilter::ops {

using OperationFactory = Operation (*)();
using OperationFamilyFactory = std::vector<Operation> (*)();

// Constructed before main() (or as the library loads) by GPUFILTER_REGISTER_OPERATION;
// registers a factory of one op, or of a family of ops that share one.
struct OperationRegistration {
  explicit OperationRegistration(OperationFactory make);
  explicit OperationRegistration(OperationFamilyFactory make);
};

#define GPUFILTER_REGISTER_OPERATION_JOIN2(a, b) a##b
#define GPUFILTER_REGISTER_OPERATION_JOIN(a, b) GPUFILTER_REGISTER_OPERATION_JOIN2(a, b)
#define GPUFILTER_REGISTER_OPERATION(factory)                                                    \
  static const ::gpufilter::ops::OperationRegistration GPUFILTER_REGISTER_OPERATION_JOIN( \
      gpufilter_registration_, __LINE__)(factory)

// "c0", "c1", ...: the data ops' names for channels.
std::vector<std::string> channel_labels(int channels);

}  // namespace gpufilter::ops
