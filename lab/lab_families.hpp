#pragma once
// Each family's lab variants (lab/<family>/*_lab.cpp); lab_variants.cpp gathers them.
#include <vector>

#include "lab/lab.hpp"

namespace gpufilter::lab {

std::vector<LabVariant> copy_lab_variants();
std::vector<LabVariant> conversion_lab_variants();
std::vector<LabVariant> filter_lab_variants();
std::vector<LabVariant> geometry_lab_variants();
std::vector<LabVariant> reduction_lab_variants();

}  // namespace gpufilter::lab
