// The lab's vec16: the library's vec16 kernels (conversion_vec16.cuh) without the warp's
// shared stage, each lane moving its own 16-byte chunks (superseded by vec16_warp, whose
// global instructions are contiguous across the warp on 3- and 4-byte sides).
#include "conversion/conversion_vec16.cuh"
#include "lab/conversion/conversion_lab_launch.hpp"

namespace gpufilter::lab {

bool launch_convert_vec16_plain(const ImageView& src, const ImageView& dst, const kernels::PixelMapping& mapping,
                                const ExecContext& ctx) {
  return kernels::convert_vec16<false>(src, dst, kernels::with_selectors(mapping, src.format), ctx);
}

bool launch_to_planar_vec16_plain(const ImageView& src, const kernels::PlaneSet& dst, const ExecContext& ctx) {
  return kernels::to_planar_vec16<false>(src, dst, ctx);
}

bool launch_to_interleaved_vec16_plain(const kernels::PlaneSet& src, const ImageView& dst, const ExecContext& ctx) {
  return kernels::to_interleaved_vec16<false>(src, dst, ctx);
}

}  // namespace gpufilter::lab
