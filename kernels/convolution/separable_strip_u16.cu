// The separable strip kernels for u16 images (separable_strip.cuh), one file per pixel
// type so that the build compiles them side by side.
#include <cstdint>

#include "convolution/separable_strip.cuh"

namespace gpufilter::kernels::strip {
template void launch_typed<std::uint16_t>(const ImageView&, const ImageView&, const FilterSpec&, const Border&,
                                 const ExecContext&);
}  // namespace gpufilter::kernels::strip
