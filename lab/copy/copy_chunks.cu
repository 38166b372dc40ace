// The lab's copies (the seeds' experiments): one kernel templated on the access width,
// the unrolling, the load kind and the loop shape.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "common/launch.cuh"
#include "copy/copy_tuning.hpp"
#include "lab/copy/copy_chunks_launch.hpp"

namespace gpufilter::lab {
namespace {

using kernels::blocks_for;
using kernels::check_launch;
using kernels::CopyTuning;
using kernels::grid_x;
using kernels::grid_y;

template <CopyLoad kLoad, class V>
__device__ __forceinline__ V load(const V* p) {
  if constexpr (kLoad == CopyLoad::ReadOnly) return __ldg(p);
  else if constexpr (kLoad == CopyLoad::Global) return __ldcg(p);
  else return *p;
}

// Row y of the grid's rows; within a row, block b covers blockDim.x * kUnroll chunks
// (chunk i, i + blockDim.x, ... for coalescing). With kGridStride the blocks loop over
// the row's chunks with a stride of the grid's width. Block 0 of each row also copies
// the bytes before the first aligned chunk (head) and after the last (tail): under 16
// each, so any block of at least 16 threads covers them.
template <class V, int kUnroll, CopyLoad kLoad, bool kGridStride>
__global__ void copy_chunks_kernel(const unsigned char* src, std::size_t src_pitch, unsigned char* dst,
                                   std::size_t dst_pitch, std::size_t row_bytes, int rows) {
  const std::size_t threads = blockDim.x;
  const std::size_t per_block = threads * kUnroll;
  for (long long y = blockIdx.y; y < rows; y += gridDim.y) {
    const unsigned char* s = src + y * src_pitch;
    unsigned char* d = dst + y * dst_pitch;
    const std::size_t head = min((sizeof(V) - reinterpret_cast<std::uintptr_t>(s) % sizeof(V)) % sizeof(V), row_bytes);
    const std::size_t chunks = (row_bytes - head) / sizeof(V);
    const std::size_t body_end = head + chunks * sizeof(V);
    const V* sv = reinterpret_cast<const V*>(s + head);
    V* dv = reinterpret_cast<V*>(d + head);
    const std::size_t stride = kGridStride ? gridDim.x * per_block : chunks;
    for (std::size_t base = blockIdx.x * per_block + threadIdx.x; base < chunks; base += stride) {
      V v[kUnroll];
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const std::size_t i = base + static_cast<std::size_t>(k) * threads;
        if (i < chunks) v[k] = load<kLoad>(sv + i);
      }
#pragma unroll
      for (int k = 0; k < kUnroll; ++k) {
        const std::size_t i = base + static_cast<std::size_t>(k) * threads;
        if (i < chunks) dv[i] = v[k];
      }
      if (!kGridStride) break;
    }
    if (blockIdx.x == 0) {
      const std::size_t tail = row_bytes - body_end;
      if (threadIdx.x < head) d[threadIdx.x] = s[threadIdx.x];
      if (threadIdx.x < tail) d[body_end + threadIdx.x] = s[body_end + threadIdx.x];
    }
  }
}

int multiprocessors() {
  int device = 0, count = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice", __FILE__, __LINE__);
  check_cuda(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute",
             __FILE__, __LINE__);
  return count;
}

template <class V, int kUnroll, CopyLoad kLoad, bool kGridStride>
void launch(const ImageView& src, const ImageView& dst, int threads, const ExecContext& ctx) {
  const std::size_t row_bytes = src.row_bytes();
  const long long max_chunks = static_cast<long long>(row_bytes / sizeof(V) + 1);
  const long long per_block = static_cast<long long>(threads) * kUnroll;
  long long blocks_x = blocks_for(max_chunks, static_cast<int>(per_block));
  long long blocks_y = src.height;
  if (kGridStride) {
    // A fixed grid of a few resident blocks per SM, spread over rows first.
    const long long total = static_cast<long long>(multiprocessors()) * CopyTuning::kGridStrideBlocksPerSm;
    blocks_x = blocks_x < total ? blocks_x : total;
    const long long rows = total / blocks_x;
    blocks_y = blocks_y < rows ? blocks_y : (rows < 1 ? 1 : rows);
  }
  const dim3 grid(grid_x(blocks_x, "copy_chunks_kernel"), grid_y(blocks_y));
  copy_chunks_kernel<V, kUnroll, kLoad, kGridStride><<<grid, threads, 0, ctx.stream>>>(
      static_cast<const unsigned char*>(src.data), src.pitch, static_cast<unsigned char*>(dst.data), dst.pitch,
      row_bytes, src.height);
}

// The variants: int and int2 plain, one per thread; the rest int4 in each shape.
void launch_int4(const ImageView& src, const ImageView& dst, const CopyShape& shape, const ExecContext& ctx) {
  if (shape.grid_stride) return launch<int4, 1, CopyLoad::Plain, true>(src, dst, shape.threads, ctx);
  if (shape.unroll == 4) return launch<int4, 4, CopyLoad::Plain, false>(src, dst, shape.threads, ctx);
  switch (shape.load) {
    case CopyLoad::Plain: return launch<int4, 1, CopyLoad::Plain, false>(src, dst, shape.threads, ctx);
    case CopyLoad::ReadOnly: return launch<int4, 1, CopyLoad::ReadOnly, false>(src, dst, shape.threads, ctx);
    case CopyLoad::Global: return launch<int4, 1, CopyLoad::Global, false>(src, dst, shape.threads, ctx);
  }
}

}  // namespace

bool launch_copy_chunks(const ImageView& src, const ImageView& dst, const CopyShape& shape, const ExecContext& ctx) {
  const auto width = static_cast<std::uintptr_t>(shape.bytes);
  const auto src_addr = reinterpret_cast<std::uintptr_t>(src.data);
  const auto dst_addr = reinterpret_cast<std::uintptr_t>(dst.data);
  // Every row of src and dst starts at the same offset mod the access width.
  if ((src_addr - dst_addr) % width != 0 || (src.pitch - dst.pitch) % width != 0) return false;
  if ((shape.bytes != 16) && (shape.grid_stride || shape.unroll != 1 || shape.load != CopyLoad::Plain))
    throw Error(ErrorCode::InvalidArgument, "copy: only 16-byte chunks come unrolled, grid-strided or with other loads");
  if (shape.threads < 32 || shape.threads > 1024 || shape.threads % 32 != 0)
    throw Error(ErrorCode::InvalidArgument, "copy: threads per block must be a multiple of 32 in [32, 1024], got " +
                                                std::to_string(shape.threads));
  switch (shape.bytes) {
    case 4: launch<int, 1, CopyLoad::Plain, false>(src, dst, shape.threads, ctx); break;
    case 8: launch<int2, 1, CopyLoad::Plain, false>(src, dst, shape.threads, ctx); break;
    default: launch_int4(src, dst, shape, ctx); break;
  }
  check_launch("copy_chunks_kernel", ctx);
  return true;
}

}  // namespace gpufilter::lab
