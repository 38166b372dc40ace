#pragma once
// The __constant__ mask buffer of the constant, tiled and tiled-L2 filter2d kernels.
// Without relocatable device code a __constant__ variable belongs to its translation
// unit, so each .cu that includes this gets its own buffer and its own MaskSlots
// (which orders uploads against the kernels reading them, across streams). Include
// it from exactly the .cu files whose kernels read c_filter2d_masks.
#include <cstddef>
#include <string>
#include <vector>

#include "convolution/filter2d_tuning.hpp"
#include "convolution/mask_slots.hpp"
#include "gpufilter/error.hpp"
#include "gpufilter/filter_spec.hpp"

namespace gpufilter::kernels {
namespace {

// Mask k's tap (i, j) at k*w*h + j*w + i. One slot: see Filter2dTuning.
__constant__ float c_filter2d_masks[Filter2dTuning::kConstantCapacity];

MaskSlots& filter2d_mask_slots() {
  static MaskSlots slots(Filter2dTuning::kConstantSlots, Filter2dTuning::kConstantCapacity,
                         [](int slot, const float* weights, int count, cudaStream_t stream) {
                           GPUFILTER_CUDA_CHECK(cudaMemcpyToSymbolAsync(
                               c_filter2d_masks, weights, sizeof(float) * static_cast<std::size_t>(count),
                               sizeof(float) * static_cast<std::size_t>(slot) * Filter2dTuning::kConstantCapacity,
                               cudaMemcpyHostToDevice, stream));
                         });
  return slots;
}

// Throws Error(InvalidArgument) where the masks exceed the __constant__ buffer.
void require_constant_fit(const std::vector<float>& weights, const FilterSpec& spec, const char* variant) {
  if (weights.size() > static_cast<std::size_t>(Filter2dTuning::kConstantCapacity))
    throw Error(ErrorCode::InvalidArgument,
                std::string(variant) + ": " + std::to_string(spec.masks.size()) + " mask(s) of " +
                    std::to_string(spec.width()) + "x" + std::to_string(spec.height()) + " need " +
                    std::to_string(weights.size()) + " floats of __constant__ memory; at most " +
                    std::to_string(Filter2dTuning::kConstantCapacity) + " fit");
}

}  // namespace
}  // namespace gpufilter::kernels
