#pragma once
// Decoded JPEG planes (Y full size, Cb and Cr subsampled h x v) to interleaved RGB the way
// libjpeg does it (jpeg_ycc_math.hpp). dst: u8x3 device view of Y's size.
#include "jpeg_ycc_math.hpp"
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter::kernels {

void launch_ycc_planes_to_rgb(const YccPlane& y, const YccPlane& cb, const YccPlane& cr, int h, int v,
                              const ImageView& dst, const ExecContext& ctx);

}  // namespace gpufilter::kernels
