#pragma once
// Launcher of the vertical-first 8-bit kernel (separable_packed.cu). src and dst are
// validated device views of equal size and format that do not overlap; `border.value`
// is representable in u8.
#include "gpufilter/border.hpp"
#include "gpufilter/filter_spec.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

// Runs a spec that separable_packed_fits() (separable_packed_weights.hpp); throws
// Error(UnsupportedFormat) for any other.
void launch_separable_packed(const ImageView& src, const ImageView& dst, const FilterSpec& spec, const Border& border,
                             const ExecContext& ctx);

}  // namespace gpufilter::kernels
