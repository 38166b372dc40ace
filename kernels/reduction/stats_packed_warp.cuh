#pragma once
// The packed_warp stats kernel (warp_bound_stats.cuh) in any walk shape, u8 only (the
// library launches its prefetch and bulk shapes, stats_packed_warp.cu; the lab the
// others): one launch, the last block to finish combines the blocks' partials (as the
// other stats kernels do). One kernel template over the walk shapes of
// reduction_tuning.hpp (PackedWarpWalk, PackedWarpPrefetchWalk, PackedWarpBulkWalk; the
// lab's lab/reduction/stats_walks.hpp adds its own): groups per step, steps loaded ahead (in
// registers or in a shared ring, filled per warp or per block), and the blocks per SM
// the registers must allow.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/device_limits.hpp"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "common/stream_buffer.hpp"
#include "reduction/reduction_tuning.hpp"
#include "reduction/segment_walker.cuh"
#include "reduction/stats_accumulator.cuh"
#include "reduction/stats_finish.cuh"
#include "reduction/warp_bound_stats.cuh"

namespace gpufilter::kernels {
namespace packed_warp_detail {

inline constexpr int kThreads = ReductionTuning::kThreads;
inline constexpr int kWarps = ReductionTuning::kWarps;
using T = std::uint8_t;
using Channel = StatsAcc<T, 1>;

template <class Walk, int C>
inline constexpr int kMinBlocks = C == 1 ? Walk::kMinBlocks1 : C == 3 ? Walk::kMinBlocks3 : Walk::kMinBlocks4;

// Shared memory of a block: the static slots (and the block's total), and the dynamic
// ring of a walk with kSharedRing (else none).
template <int C>
inline constexpr std::size_t kStaticSharedBytes = sizeof(StatsShared<T, C, kThreads>) + sizeof(StatsAcc<T, C>) + 16;
template <class Walk, int C>
inline constexpr std::size_t kRingBytes =
    sizeof(int4) * kWarps * static_cast<std::size_t>(WalkShape<T, C, Walk>::kRingPerWarp);

template <int C>
__device__ __forceinline__ Channel slot_channel(const StatsShared<T, C, kThreads>& slots, int c, int i) {
  Channel o;
  o.min[0] = slots.min[c][i];
  o.max[0] = slots.max[c][i];
  o.min_pos[0] = slots.min_pos[c][i];
  o.max_pos[0] = slots.max_pos[c][i];
  o.sum[0] = slots.sum[c][i];
  o.sum_sq[0] = slots.sum_sq[c][i];
  return o;
}

template <int C>
__device__ __forceinline__ void set_channel(StatsAcc<T, C>& a, int c, const Channel& o) {
  a.min[c] = o.min[0];
  a.max[c] = o.max[0];
  a.min_pos[c] = o.min_pos[0];
  a.max_pos[c] = o.max_pos[0];
  a.sum[c] = o.sum[0];
  a.sum_sq[c] = o.sum_sq[0];
}

// Channel c of a partial another block wrote, past L1 (not coherent between SMs).
template <int C>
__device__ __forceinline__ Channel load_partial_channel(const StatsAcc<T, C>* p, int c) {
  Channel o;
  o.min[0] = __ldcg(&p->min[c]);
  o.max[0] = __ldcg(&p->max[c]);
  o.min_pos[0] = __ldcg(&p->min_pos[c]);
  o.max_pos[0] = __ldcg(&p->max_pos[c]);
  o.sum[0] = __ldcg(&p->sum[c]);
  o.sum_sq[0] = __ldcg(&p->sum_sq[c]);
  return o;
}

// The block's and the grid's combines go channel by channel (warp c merges channel c),
// so no thread ever holds every channel's 64-bit fields: the kernel keeps the register
// budget that lets kMinBlocks blocks share an SM.
template <int C, class Walk>
__global__ void __launch_bounds__(kThreads, kMinBlocks<Walk, C>)
    stats_packed_warp_kernel(Segments segments, int width, int height, StatsAcc<T, C>* partials,
                             unsigned* blocks_done, double* result) {
  using Acc = StatsAcc<T, C>;
  static_assert(C <= kWarps, "one warp per channel in the combines");
  __shared__ StatsShared<T, C, kThreads> slots;  // per thread: records and 64-bit sums
  __shared__ Acc total;
  __shared__ bool last;
  {
    extern __shared__ int4 walk_ring[];  // walks with kSharedRing: the rings
    WarpBoundByteVisitor<C, kThreads, Walk> visitor(slots);
    walk_segments<T, C, decltype(visitor), Walk>(segments, visitor, walk_ring);
  }
  __syncthreads();
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % 32, warp = tid / 32;
  if (warp < C) {
    Channel a = Channel::identity();
    for (int i = lane; i < kThreads; i += 32) a.merge(slot_channel(slots, warp, i));
    a = warp_reduce(a);
    if (lane == 0) set_channel(total, warp, a);
  }
  __syncthreads();

  if (tid == 0) {
    partials[blockIdx.x] = total;
    __threadfence();  // the partial is visible before the count says so
    last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  if (warp < C) {
    Channel a = Channel::identity();
    for (unsigned i = static_cast<unsigned>(lane); i < gridDim.x; i += 32)
      a.merge(load_partial_channel(partials + i, warp));
    a = warp_reduce(a);
    if (lane == 0) set_channel(total, warp, a);
  }
  __syncthreads();
  // A thread a channel: the rows' divisions run side by side. This block runs alone at
  // the kernel's end: block timestamps showed it long on RGBA when thread 0 wrote all four
  // rows with 64-bit divisions. (Every thread merging a share of the partials into its
  // slot, then the slots combined as the block's own, measured slower on RGB and RGBA;
  // docs/techniques/reduction.md, "Loads in flight".)
  if (tid < C) {
    const unsigned long long n = static_cast<unsigned long long>(width) * static_cast<unsigned>(height);
    write_stats_channel(total, tid, result, width, n);
  }
}

template <int C, class Walk>
void launch_channels(const ImageView& src, double* result, const char* name, const ExecContext& ctx) {
  using Acc = StatsAcc<T, C>;
  using Shape = WalkShape<T, C, Walk>;
  const Segments segments = make_segments(src.data, src.pitch, src.width, src.height, C, sizeof(T));
  auto kernel = stats_packed_warp_kernel<C, Walk>;
  const void* key = reinterpret_cast<const void*>(kernel);
  prefer_shared_carveout(key);  // kMinBlocks blocks of 40 KiB shared memory each
  constexpr std::size_t ring_bytes = kRingBytes<Walk, C>;
  // Enough blocks for every thread to have a few steps, at most one resident wave.
  const long long work_blocks = segments.whole
                                    ? blocks_for(segments.samples / (Shape::kGroupSamples * Shape::kGroups), kThreads)
                                    : blocks_for(segments.count, kWarps);
  const int per_sm = std::min(cached_blocks_per_sm(key, kThreads, ring_bytes, kStaticSharedBytes<C>),
                              ReductionTuning::kMaxBlocksPerSm);
  const long long wave = static_cast<long long>(per_sm) * cached_sm_count();
  const unsigned grid = static_cast<unsigned>(std::clamp<long long>(work_blocks, 1, wave));
  const std::size_t partial_bytes = sizeof(Acc) * grid;
  StreamBuffer scratch(partial_bytes + sizeof(unsigned), ctx.stream);
  auto* partials = scratch.get<Acc>();
  auto* blocks_done = reinterpret_cast<unsigned*>(scratch.get<unsigned char>() + partial_bytes);
  GPUFILTER_CUDA_CHECK(cudaMemsetAsync(blocks_done, 0, sizeof(unsigned), ctx.stream));
  kernel<<<grid, kThreads, ring_bytes, ctx.stream>>>(segments, src.width, src.height, partials, blocks_done, result);
  check_launch(name, ctx);
}

// Whether the device gives a block the static slots and the shared ring of the walk.
template <int C, class Walk>
bool fits_shared_memory() {
  return kRingBytes<Walk, C> == 0 || kStaticSharedBytes<C> + kRingBytes<Walk, C> <= max_shared_memory_per_block();
}

template <int C, class Walk, class Fallback>
void launch_or_fallback(const ImageView& src, double* result, const char* name, const char* fallback_name,
                        const ExecContext& ctx) {
  if (fits_shared_memory<C, Walk>())
    launch_channels<C, Walk>(src, result, name, ctx);
  else
    launch_channels<C, Fallback>(src, result, fallback_name, ctx);
}

}  // namespace packed_warp_detail

// The packed_warp kernel in Walk's shape on a u8 view of 1, 3 or 4 channels, or (where
// the device's shared memory per block cannot hold Walk's ring) in Fallback's, which
// needs no ring.
template <class Walk, class Fallback>
void launch_packed_warp_walk(const ImageView& src, double* result, const char* name, const char* fallback_name,
                             const ExecContext& ctx) {
  using packed_warp_detail::launch_or_fallback;
  switch (src.format.channels) {
    case 1: launch_or_fallback<1, Walk, Fallback>(src, result, name, fallback_name, ctx); return;
    case 3: launch_or_fallback<3, Walk, Fallback>(src, result, name, fallback_name, ctx); return;
    case 4: launch_or_fallback<4, Walk, Fallback>(src, result, name, fallback_name, ctx); return;
  }
  throw Error(ErrorCode::UnsupportedFormat,
              std::string(name) + ": unsupported channel count in " + src.format.name());
}

}  // namespace gpufilter::kernels
