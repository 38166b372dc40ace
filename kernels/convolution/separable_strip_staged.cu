// The pixel-column strip with staged stores (separable_strip.cuh, kStaged) on RGBA of
// each channel type, for the lab's `separable_strip_staged`: a file of its own, so the
// library's strip files do not grow by its kernels.
#include <cstdint>

#include "convolution/separable_strip.cuh"

namespace gpufilter::kernels::strip {
template void launch_typed_staged<std::uint8_t>(const ImageView&, const ImageView&, const FilterSpec&, const Border&,
                                                const ExecContext&);
template void launch_typed_staged<std::uint16_t>(const ImageView&, const ImageView&, const FilterSpec&,
                                                 const Border&, const ExecContext&);
template void launch_typed_staged<float>(const ImageView&, const ImageView&, const FilterSpec&, const Border&,
                                         const ExecContext&);
}  // namespace gpufilter::kernels::strip
