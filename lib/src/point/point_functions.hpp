#pragma once
// The point ops' parameters as the kernels' PointFunction: the math the GPU computes
// for u16 and f32 samples, and for u8 a 256-entry table computed here in double.
#include "gpufilter/point_ops.hpp"
#include "kernels/point/point_launch.hpp"

namespace gpufilter::ops {

kernels::PointFunction invert_function();
kernels::PointFunction brightness_function(const BrightnessParams& params, ChannelType type);
kernels::PointFunction contrast_function(const ContrastParams& params, ChannelType type);
kernels::PointFunction gamma_function(const GammaParams& params, ChannelType type);
kernels::PointFunction levels_function(const LevelsParams& params, ChannelType type);

}  // namespace gpufilter::ops
