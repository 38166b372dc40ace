#pragma once
// The point family's variant table, which its names and errors (point_types.cpp) and its
// registry entries (point_operations.cpp) read, and the parameters both sides of its ops
// read (point_operations.cpp; the GPU side: gpu/point_gpu.cpp).
#include "gpufilter/point_ops.hpp"
#include "gpufilter/registry.hpp"
#include "common/variant_table.hpp"

namespace gpufilter::ops {

inline constexpr VariantRow<PointVariant> kPointVariants[] = {
    {PointVariant::Scalar, "scalar", "one channel sample per thread"},
    {PointVariant::Vectorized, "vectorized", "16-byte loads and stores, several per thread"},
};

// --channels (rgb by default), and each op's parameters with it; --value is required.
PointChannels channels_of(const ParamValues& values);
BrightnessParams brightness_of(const ParamValues& values);
ContrastParams contrast_of(const ParamValues& values);
GammaParams gamma_of(const ParamValues& values);
LevelsParams levels_of(const ParamValues& values);

}  // namespace gpufilter::ops
