#include <cstdint>

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "copy/copy_launch.hpp"
#include "copy/copy_tuning.hpp"

namespace gpufilter::kernels {
namespace {

// Rows beyond gridDim.y (at most 65535 blocks) are walked with a stride.
template <class T>
__global__ void copy_scalar_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                   std::size_t dst_pitch, long long elements_per_row, int rows) {
  const long long x = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= elements_per_row) return;
  for (long long y = static_cast<long long>(blockIdx.y) * blockDim.y + threadIdx.y; y < rows;
       y += static_cast<long long>(gridDim.y) * blockDim.y)
    reinterpret_cast<T*>(dst + y * dst_pitch)[x] = reinterpret_cast<const T*>(src + y * src_pitch)[x];
}

// Each block copies kThreads * kChunksPerThread chunks of one row; blockIdx.y walks
// rows (looping where there are more rows than the grid's y limit).
__global__ void copy_vec16_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                  std::size_t dst_pitch, std::size_t row_bytes, int rows, int head) {
  constexpr int kPerBlock = CopyTuning::kThreads * CopyTuning::kChunksPerThread;
  const std::size_t body_chunks = (row_bytes - static_cast<std::size_t>(head)) / 16;
  const std::size_t body_end = static_cast<std::size_t>(head) + body_chunks * 16;
  for (long long y = blockIdx.y; y < rows; y += gridDim.y) {
    const unsigned char* s = src + y * src_pitch;
    unsigned char* d = dst + y * dst_pitch;
    const int4* s4 = reinterpret_cast<const int4*>(s + head);
    int4* d4 = reinterpret_cast<int4*>(d + head);
    const std::size_t first = blockIdx.x * static_cast<std::size_t>(kPerBlock) + threadIdx.x;
    int4 v[CopyTuning::kChunksPerThread];
#pragma unroll
    for (int k = 0; k < CopyTuning::kChunksPerThread; ++k) {
      const std::size_t i = first + static_cast<std::size_t>(k) * CopyTuning::kThreads;
      if (i < body_chunks) v[k] = __ldg(s4 + i);
    }
#pragma unroll
    for (int k = 0; k < CopyTuning::kChunksPerThread; ++k) {
      const std::size_t i = first + static_cast<std::size_t>(k) * CopyTuning::kThreads;
      if (i < body_chunks) d4[i] = v[k];
    }
    // The unaligned head (before the first 16-byte boundary) and tail, byte by byte.
    if (blockIdx.x == 0) {
      const std::size_t tail = row_bytes - body_end;
      if (threadIdx.x < static_cast<unsigned>(head)) d[threadIdx.x] = s[threadIdx.x];
      if (threadIdx.x < tail) d[body_end + threadIdx.x] = s[body_end + threadIdx.x];
    }
  }
}

}  // namespace

void launch_copy_scalar(const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  visit_format(src.format, [&](auto tag, auto channels) {
    using T = typename decltype(tag)::type;
    const long long elements = static_cast<long long>(src.width) * decltype(channels)::value;
    const dim3 block(CopyTuning::kScalarBlockX, CopyTuning::kScalarBlockY);
    const dim3 grid(grid_x(blocks_for(elements, CopyTuning::kScalarBlockX), "copy_scalar_kernel"),
                    grid_y(blocks_for(src.height, CopyTuning::kScalarBlockY)));
    copy_scalar_kernel<T><<<grid, block, 0, ctx.stream>>>(static_cast<const unsigned char*>(src.data), src.pitch,
                                                          static_cast<unsigned char*>(dst.data), dst.pitch,
                                                          elements, src.height);
  });
  check_launch("copy_scalar_kernel", ctx);
}

bool launch_copy_vectorized(const ImageView& src, const ImageView& dst, const ExecContext& ctx) {
  const auto src_addr = reinterpret_cast<std::uintptr_t>(src.data);
  const auto dst_addr = reinterpret_cast<std::uintptr_t>(dst.data);
  if (src_addr % 16 != dst_addr % 16 || src.pitch % 16 != 0 || dst.pitch % 16 != 0) return false;
  const std::size_t row_bytes = src.row_bytes();
  const int head = static_cast<int>(std::min<std::size_t>((16 - src_addr % 16) % 16, row_bytes));
  const std::size_t body_chunks = (row_bytes - static_cast<std::size_t>(head)) / 16;
  constexpr int kPerBlock = CopyTuning::kThreads * CopyTuning::kChunksPerThread;
  const dim3 grid(grid_x(blocks_for(static_cast<long long>(body_chunks), kPerBlock), "copy_vec16_kernel"),
                  grid_y(src.height));
  copy_vec16_kernel<<<grid, CopyTuning::kThreads, 0, ctx.stream>>>(
      static_cast<const unsigned char*>(src.data), src.pitch, static_cast<unsigned char*>(dst.data), dst.pitch,
      row_bytes, src.height, head);
  check_launch("copy_vec16_kernel", ctx);
  return true;
}

}  // namespace gpufilter::kernels
