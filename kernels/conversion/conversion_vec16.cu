// The library's vec16 conversions of 8-bit images: the kernels of conversion_vec16.cuh
// with the 3- and 4-byte sides regrouped through the warp's stage (vec16_warp).
#include "conversion/conversion_launch.hpp"
#include "conversion/conversion_vec16.cuh"

namespace gpufilter::kernels {

bool launch_convert_vec16(const ImageView& src, const ImageView& dst, const PixelMapping& m, const ExecContext& ctx) {
  return convert_vec16<true>(src, dst, m, ctx);
}

bool launch_to_planar_vec16(const ImageView& src, const PlaneSet& dst, const ExecContext& ctx) {
  return to_planar_vec16<true>(src, dst, ctx);
}

bool launch_to_interleaved_vec16(const PlaneSet& src, const ImageView& dst, const ExecContext& ctx) {
  return to_interleaved_vec16<true>(src, dst, ctx);
}

}  // namespace gpufilter::kernels
