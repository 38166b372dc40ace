// The pixel-column strip with staged stores (separable_strip.cuh, kStaged) on RGBA8, for
// the lab's `separable_strip_staged`: a file of its own, so the library's strip files do
// not grow by its kernels. RGBA of 16 and 32 bits needs none here: the library's strip
// stages its stores already (separable_strip_<type>.cu has those kernels).
#include <cstdint>

#include "convolution/separable_strip.cuh"

namespace gpufilter::kernels::strip {
template void launch_typed_staged<std::uint8_t>(const ImageView&, const ImageView&, const FilterSpec&, const Border&,
                                                const ExecContext&);
}  // namespace gpufilter::kernels::strip
