#pragma once
// The tensor-core separable kernel (separable_mma.cuh): one rank-1 mask (Linear or
// Unsharp output) of radius up to SeparableMmaTuning::kMaxRadius on 8-bit gray, RGB and
// RGBA, on GPUs with half-precision tensor cores (sm_80 on).
// src and dst are validated device views of equal size and format that do not overlap;
// `border.value` is representable in the pixel type.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::lab {

// Whether the kernel runs this spec on this format (on any GPU that has the tensor cores).
bool separable_mma_fits(PixelFormat format, const FilterSpec& spec);

// separable_mma_fits() and the current GPU has the tensor cores (sm_80 on).
bool separable_mma_runs(PixelFormat format, const FilterSpec& spec);

// Throws Error(UnsupportedFormat) where separable_mma_runs() is false.
void launch_separable_mma(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                          const ExecContext& ctx);

}  // namespace gpufilter::lab
