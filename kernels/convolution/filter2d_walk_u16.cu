// The column-walk kernels for u16 images (filter2d_walk.cuh), one file per pixel type
// so that the build compiles them side by side.
#include <cstdint>

#include "convolution/filter2d_walk.cuh"

namespace gpufilter::kernels::walk {
template void launch_typed<std::uint16_t>(const ImageView&, const ImageView&, const FilterSpec&, const Border&,
                                          const ExecContext&);
}  // namespace gpufilter::kernels::walk
