// The separable strip on element columns for f32 images (separable_strip_elements.cuh),
// one file per channel type so that the build compiles them side by side.
#include <cstdint>

#include "convolution/separable_strip_elements.cuh"

namespace gpufilter::kernels::strip {
template void launch_elements<float>(const ImageView&, const ImageView&, const FilterSpec&, const Border&,
                                                const ExecContext&);
}  // namespace gpufilter::kernels::strip
