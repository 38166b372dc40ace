#pragma once
/// @file
/// The last step of decoding a colour JPEG, as libjpeg does it by default (and with it
/// OpenCV, Pillow and the tool's CPU decoder): Cb and Cr upsampled with libjpeg's
/// "fancy" triangle filter, then its integer YCbCr -> RGB. A decoder that stops at the
/// planes (nvJPEG's YUV output) and this step give the CPU decoder's pixels, up to the
/// rounding of its inverse DCT, instead of nvJPEG's own replicated chroma.
#include "gpufilter/image_view.hpp"
#include "gpufilter/stream.hpp"

namespace gpufilter {

/// Y, Cb and Cr as 1-channel u8 views: Y the image's size, Cb and Cr of one size, each
/// side ceil(Y's side / factor) with `h_factor` and `v_factor` luma samples a chroma
/// sample (1 or 2: 4:4:4, 4:2:2, 4:4:0 and 4:2:0).
struct YccPlanes {
  ImageView y, cb, cr;
  int h_factor = 2;
  int v_factor = 2;
};

/// On the GPU: planes and dst (u8x3, Y's size) in device memory, enqueued on ctx.stream.
/// Error(InvalidArgument) for formats, sizes or factors that break the rules above.
void ycc_planes_to_rgb(const YccPlanes& planes, const ImageView& dst, const ExecContext& ctx = {});
/// The same on the CPU: planes and dst in host memory.
void ycc_planes_to_rgb_cpu(const YccPlanes& planes, const ImageView& dst);

}  // namespace gpufilter
