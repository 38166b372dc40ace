// The seed's bounds for the transpose (000, 4.4.2): a copy that reads and writes rows
// (every access coalesced: the upper bound) and one that reads and writes columns
// (every access strided: the lower bound). They do not transpose, so they are not
// variants of an op; the bench times them beside the transposes.
#include "common/launch.cuh"
#include "geometry/pixel_bytes.cuh"
#include "lab/geometry/geometry_lab_launch.hpp"

namespace gpufilter::lab {
namespace {

using namespace gpufilter::kernels;  // pixel_row, the launch checks

// kColumns: threadIdx.x walks rows, so a warp's 32 accesses are a column apart.
template <int N, int A, bool kColumns>
__global__ void copy_bound_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                  std::size_t dst_pitch, int width, int height, unsigned blocks_x) {
  const unsigned bx = blockIdx.x % blocks_x, by = blockIdx.x / blocks_x;
  const long long i = static_cast<long long>(bx) * blockDim.x + threadIdx.x;
  const long long j = static_cast<long long>(by) * blockDim.y + threadIdx.y;
  const long long x = kColumns ? j : i, y = kColumns ? i : j;
  if (x >= width || y >= height) return;
  pixel_row<N, A>(dst, dst_pitch, y)[x] = pixel_row<N, A>(src, src_pitch, y)[x];
}

}  // namespace

void launch_copy_bound(const ImageView& src, const ImageView& dst, bool columns, BlockShape shape,
                       const ExecContext& ctx) {
  const dim3 block = shape == BlockShape::Wide32x8 ? dim3(32, 8) : shape == BlockShape::Thin8x32 ? dim3(8, 32) : dim3(16, 16);
  const long long space_x = columns ? src.height : src.width, space_y = columns ? src.width : src.height;
  const long long blocks_x = blocks_for(space_x, static_cast<int>(block.x));
  const unsigned grid = grid_x(blocks_x * blocks_for(space_y, static_cast<int>(block.y)), "copy_bound_kernel");
  visit_pixel_layout(src.format, [&](auto n, auto a) {
    constexpr int N = decltype(n)::value, A = decltype(a)::value;
    const auto* s = static_cast<const unsigned char*>(src.data);
    auto* d = static_cast<unsigned char*>(dst.data);
    if (columns)
      copy_bound_kernel<N, A, true><<<grid, block, 0, ctx.stream>>>(s, src.pitch, d, dst.pitch, src.width, src.height,
                                                                    static_cast<unsigned>(blocks_x));
    else
      copy_bound_kernel<N, A, false><<<grid, block, 0, ctx.stream>>>(s, src.pitch, d, dst.pitch, src.width, src.height,
                                                                     static_cast<unsigned>(blocks_x));
  });
  check_launch("copy_bound_kernel", ctx);
}

}  // namespace gpufilter::lab
