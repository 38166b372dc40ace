// libjpeg's fancy upsampling and YCbCr -> RGB (jpeg_ycc_math.hpp) on the GPU: one thread a
// pixel. It follows a hardware or CUDA JPEG decoder that stops at the planes, so it runs
// once a file at decoding speed, not as a tuned op: the chroma samples a warp reads are
// shared by neighbouring threads and come from L1.
#include <cstdint>

#include "common/launch.cuh"
#include "conversion/jpeg_ycc_launch.hpp"

namespace gpufilter::kernels {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

template <int H, int V>
__global__ void ycc_planes_to_rgb_kernel(YccPlane y_plane, YccPlane cb, YccPlane cr, std::uint8_t* dst,
                                         std::size_t dst_pitch) {
  const int x = static_cast<int>(blockIdx.x) * kBlockX + static_cast<int>(threadIdx.x);
  for (int y = static_cast<int>(blockIdx.y) * kBlockY + static_cast<int>(threadIdx.y); y < y_plane.height;
       y += static_cast<int>(gridDim.y) * kBlockY) {
    if (x >= y_plane.width) return;
    const int luma = y_plane.data[static_cast<std::size_t>(y) * y_plane.pitch + static_cast<std::size_t>(x)];
    const RgbBytes rgb = ycc_to_rgb(luma, upsampled_chroma(cb, H, V, x, y), upsampled_chroma(cr, H, V, x, y));
    std::uint8_t* out = dst + static_cast<std::size_t>(y) * dst_pitch + static_cast<std::size_t>(x) * 3;
    out[0] = rgb.r;
    out[1] = rgb.g;
    out[2] = rgb.b;
  }
}

template <int H, int V>
void launch_sampling(const YccPlane& y, const YccPlane& cb, const YccPlane& cr, const ImageView& dst,
                     const ExecContext& ctx) {
  const char* name = "ycc_planes_to_rgb_kernel";
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(grid_x(blocks_for(y.width, kBlockX), name), grid_y(blocks_for(y.height, kBlockY)));
  ycc_planes_to_rgb_kernel<H, V>
      <<<grid, block, 0, ctx.stream>>>(y, cb, cr, static_cast<std::uint8_t*>(dst.data), dst.pitch);
  check_launch(name, ctx);
}

}  // namespace

void launch_ycc_planes_to_rgb(const YccPlane& y, const YccPlane& cb, const YccPlane& cr, int h, int v,
                              const ImageView& dst, const ExecContext& ctx) {
  if (h == 1 && v == 1) launch_sampling<1, 1>(y, cb, cr, dst, ctx);
  else if (h == 2 && v == 1) launch_sampling<2, 1>(y, cb, cr, dst, ctx);
  else if (h == 1 && v == 2) launch_sampling<1, 2>(y, cb, cr, dst, ctx);
  else if (h == 2 && v == 2) launch_sampling<2, 2>(y, cb, cr, dst, ctx);
  else throw Error(ErrorCode::InvalidArgument, "ycc_planes_to_rgb: chroma subsampling other than 1 or 2 a side");
}

}  // namespace gpufilter::kernels
