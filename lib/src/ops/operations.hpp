#pragma once
// One factory per op; registry.cpp lists them. Each lives beside its op's entry point.
#include "gpufilter/registry.hpp"

namespace gpufilter::ops {

Operation make_copy_operation();
Operation make_gaussian_operation();

}  // namespace gpufilter::ops
