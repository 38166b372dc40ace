#pragma once
// The point family's variant table, which its names and errors (point_ops.cpp) and its
// registry entries (point_operations.cpp) read.
#include "gpufilter/point_ops.hpp"
#include "ops/variant_table.hpp"

namespace gpufilter::ops {

inline constexpr VariantRow<PointVariant> kPointVariants[] = {
    {PointVariant::Scalar, "scalar", "one channel sample per thread"},
    {PointVariant::Vectorized, "vectorized", "16-byte loads and stores, several per thread"},
};

}  // namespace gpufilter::ops
