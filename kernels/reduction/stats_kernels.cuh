#pragma once
// The stats kernels, as templates: the library instantiates the interleaved tree and the
// packed walk (stats_kernels.cu), the lab the seed's other steps. One launch each: every
// block reduces its share of the image to one StatsAcc, writes it to a partials array and
// counts itself done; the last block to finish combines the partials and writes the
// doubles (a "last block done" combine, so there is no second launch and no host round
// trip).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "common/stream_buffer.hpp"
#include "reduction/reduction_launch.hpp"
#include "reduction/reduction_tuning.hpp"
#include "reduction/packed_stats.cuh"
#include "reduction/stats_finish.cuh"
#include "reduction/row_walker.cuh"
#include "reduction/segment_walker.cuh"
#include "reduction/stats_accumulator.cuh"

namespace gpufilter::kernels {

// The shared-memory trees of seed 002 (stats_tree_kernel).
enum class StatsTree {
  Interleaved,  // tid % (2*s) == 0 does the work: divergent warps
  Sequential,   // tid < s does the work: whole warps retire
  FirstAdd,     // two pixels a thread added while loading
  WarpShuffle,  // first add, then the tree in registers with warp shuffles
};

namespace stats_detail {

inline constexpr int kThreads = ReductionTuning::kThreads;
inline constexpr int kWarps = ReductionTuning::kWarps;

// Reads a partial another block wrote, past L1 (which is not coherent between SMs).
template <class Acc>
__device__ Acc load_partial(const Acc* partial) {
  static_assert(sizeof(Acc) % 8 == 0, "partials are read in 8-byte words");
  constexpr int kWords = sizeof(Acc) / 8;
  unsigned long long words[kWords];
  const auto* src = reinterpret_cast<const unsigned long long*>(partial);
#pragma unroll
  for (int k = 0; k < kWords; ++k) words[k] = __ldcg(src + k);
  Acc a;
  memcpy(&a, words, sizeof(Acc));
  return a;
}

// Thread 0 holds the block's total. Every thread of the block must call this.
template <class T, int C>
__device__ void finish_grid(const StatsAcc<T, C>& block_total, StatsAcc<T, C>* partials, unsigned* blocks_done,
                            StatsAcc<T, C>* warp_totals, double* result, int width, unsigned long long n) {
  using Acc = StatsAcc<T, C>;
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block_total;
    __threadfence();  // the partial is visible before the count says so
    last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  Acc a = Acc::identity();
  for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) a.merge(load_partial(partials + i));
  a = block_reduce_shuffle<Acc, kWarps>(a, warp_totals);
  if (threadIdx.x == 0) write_stats(a, result, width, n);
}

template <class T, int C>
__device__ __forceinline__ void add_pixel(StatsAcc<T, C>& a, const unsigned char* base, std::size_t pitch, int width,
                                          unsigned long long p) {
  const unsigned long long y = p / static_cast<unsigned>(width);
  const unsigned long long x = p - y * static_cast<unsigned>(width);
  const T* px = reinterpret_cast<const T*>(base + y * pitch) + x * C;
#pragma unroll
  for (int c = 0; c < C; ++c) a.add(c, __ldg(px + c), [p] { return p; });
}

// The seed's kernels: each step, the block reduces one tile of kThreads pixels
// (FirstAdd, WarpShuffle: 2 * kThreads, two per thread added while loading) to one
// value; thread 0 keeps the running total over the tiles the block visits (tile
// blockIdx.x, then every gridDim.x-th), so the partials stay as few as the blocks.
template <class T, int C, StatsTree V>
__global__ void __launch_bounds__(kThreads) stats_tree_kernel(const unsigned char* base, std::size_t pitch, int width,
                                                              int height, StatsAcc<T, C>* partials,
                                                              unsigned* blocks_done, double* result) {
  using Acc = StatsAcc<T, C>;
  constexpr bool kTwoPerThread = V == StatsTree::FirstAdd || V == StatsTree::WarpShuffle;
  constexpr int kTile = kTwoPerThread ? 2 * kThreads : kThreads;
  __shared__ StatsShared<T, C, (V == StatsTree::WarpShuffle ? 1 : kThreads)> tree;
  __shared__ Acc warp_totals[kWarps];

  const int tid = static_cast<int>(threadIdx.x);
  const unsigned long long n = static_cast<unsigned long long>(width) * static_cast<unsigned>(height);
  const unsigned long long tiles = (n + kTile - 1) / kTile;
  Acc total = Acc::identity();
  for (unsigned long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    Acc a = Acc::identity();
    const unsigned long long p = tile * kTile + static_cast<unsigned>(tid);
    if (p < n) add_pixel(a, base, pitch, width, p);
    if constexpr (kTwoPerThread) {
      if (p + kThreads < n) add_pixel(a, base, pitch, width, p + kThreads);
    }
    if constexpr (V == StatsTree::WarpShuffle) {
      a = block_reduce_shuffle<Acc, kWarps>(a, warp_totals);
    } else {
      tree.store(tid, a);
      __syncthreads();
      if constexpr (V == StatsTree::Interleaved) {
        // Active threads 0, 2s, 4s, ...: every warp keeps a few working lanes, so all
        // warps stay busy (divergent) at every level; the stride of 2s also piles the
        // accesses onto few shared-memory banks.
        for (int s = 1; s < kThreads; s *= 2) {
          if (tid % (2 * s) == 0) tree.merge(tid, tid + s);
          __syncthreads();
        }
      } else {
        // Active threads 0..s-1: whole warps retire, and the warps left are full.
        for (int s = kThreads / 2; s > 0; s >>= 1) {
          if (tid < s) tree.merge(tid, tid + s);
          __syncthreads();
        }
      }
      if (tid == 0) a = tree.load(0);
      __syncthreads();  // slot 0 is read before the next tile overwrites it
    }
    if (tid == 0) total.merge(a);
  }
  finish_grid(total, partials, blocks_done, warp_totals, result, width, n);
}

// Grid-stride over rows, 16-byte loads, per-thread accumulators in registers, one
// shuffle reduction per block at the end.
template <class T, int C>
__global__ void __launch_bounds__(kThreads) stats_vectorized_kernel(const unsigned char* base, std::size_t pitch,
                                                                    int width, int height, StatsAcc<T, C>* partials,
                                                                    unsigned* blocks_done, double* result) {
  using Acc = StatsAcc<T, C>;
  __shared__ Acc warp_totals[kWarps];
  Acc a = Acc::identity();
  const unsigned long long w = static_cast<unsigned>(width);
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    // u8: sums and sums of squares gather in 32 bits between the walker's steps (at most
    // 66 samples of 255^2 each) and widen to 64 bits once per step, not per sample.
    unsigned sum32[C], sq32[C];
#pragma unroll
    for (int c = 0; c < C; ++c) sum32[c] = sq32[c] = 0;
    auto visit = [&](int c, T value, long long e, long long y) {
      const unsigned u = value;
      a.track(c, static_cast<int>(u),
              [&] { return static_cast<unsigned long long>(y) * w + static_cast<unsigned long long>(e / C); });
      sum32[c] += u;
      sq32[c] += u * u;
    };
    auto step_done = [&] {
#pragma unroll
      for (int c = 0; c < C; ++c) {
        a.sum[c] += sum32[c];
        a.sum_sq[c] += sq32[c];
        sum32[c] = sq32[c] = 0;
      }
    };
    walk_rows_vec16<T, C>(base, pitch, width, height, visit, step_done);
  } else {
    auto visit = [&](int c, T value, long long e, long long y) {
      a.add(c, value, [&] { return static_cast<unsigned long long>(y) * w + static_cast<unsigned long long>(e / C); });
    };
    auto no_step = [] {};
    walk_rows_vec16<T, C>(base, pitch, width, height, visit, no_step);
  }
  a = block_reduce_shuffle<Acc, kWarps>(a, warp_totals);
  const unsigned long long n = w * static_cast<unsigned>(height);
  finish_grid(a, partials, blocks_done, warp_totals, result, width, n);
}

// Whole images (contiguous rows) as one segment walked by the grid, else rows walked by
// warps; u8 four samples a word (packed_stats.cuh), u16 and f32 sample by sample.
template <class T, int C>
__global__ void __launch_bounds__(kThreads) stats_packed_kernel(Segments segments, int width, int height,
                                                                StatsAcc<T, C>* partials, unsigned* blocks_done,
                                                                double* result) {
  using Acc = StatsAcc<T, C>;
  __shared__ Acc warp_totals[kWarps];
  Acc a = Acc::identity();
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    PackedByteStatsVisitor<C> visitor{a};
    walk_segments<T, C>(segments, visitor);
  } else {
    SampleStatsVisitor<T, C> visitor{a};
    walk_segments<T, C>(segments, visitor);
  }
  a = block_reduce_shuffle<Acc, kWarps>(a, warp_totals);
  const unsigned long long n = static_cast<unsigned long long>(width) * static_cast<unsigned>(height);
  finish_grid(a, partials, blocks_done, warp_totals, result, width, n);
}

// One resident wave at most, and no more blocks than there is work for.
template <class Kernel>
unsigned resident_grid(Kernel kernel, long long work_blocks) {
  int per_sm = cached_blocks_per_sm(reinterpret_cast<const void*>(kernel), kThreads, 0);
  per_sm = std::clamp(per_sm, 1, ReductionTuning::kMaxBlocksPerSm);
  const long long wave = static_cast<long long>(per_sm) * cached_sm_count();
  return static_cast<unsigned>(std::clamp<long long>(work_blocks, 1, wave));
}

template <class T, int C, class Kernel>
void launch(Kernel kernel, const char* name, long long work_blocks, const ImageView& src, double* result,
            const ExecContext& ctx) {
  using Acc = StatsAcc<T, C>;
  const unsigned grid = resident_grid(kernel, work_blocks);
  // Partials, then the done counter, in one stream-ordered allocation.
  const std::size_t partial_bytes = sizeof(Acc) * grid;
  StreamBuffer scratch(partial_bytes + sizeof(unsigned), ctx.stream);
  auto* partials = scratch.get<Acc>();
  auto* blocks_done = reinterpret_cast<unsigned*>(scratch.get<unsigned char>() + partial_bytes);
  GPUFILTER_CUDA_CHECK(cudaMemsetAsync(blocks_done, 0, sizeof(unsigned), ctx.stream));
  kernel<<<grid, kThreads, 0, ctx.stream>>>(static_cast<const unsigned char*>(src.data), src.pitch, src.width,
                                            src.height, partials, blocks_done, result);
  check_launch(name, ctx);
}

template <class T, int C>
void launch_packed(const ImageView& src, double* result, const ExecContext& ctx) {
  using Acc = StatsAcc<T, C>;
  using Shape = WalkShape<T, C>;
  const Segments segments = make_segments(src.data, src.pitch, src.width, src.height, C, sizeof(T));
  auto kernel = stats_packed_kernel<T, C>;
  // Enough blocks for every thread to have a few steps, at most one resident wave.
  const long long work_blocks =
      segments.whole ? blocks_for(segments.samples / (Shape::kGroupSamples * Shape::kGroups), kThreads)
                     : blocks_for(segments.count, kWarps);
  const unsigned grid = resident_grid(kernel, work_blocks);
  const std::size_t partial_bytes = sizeof(Acc) * grid;
  StreamBuffer scratch(partial_bytes + sizeof(unsigned), ctx.stream);
  auto* partials = scratch.get<Acc>();
  auto* blocks_done = reinterpret_cast<unsigned*>(scratch.get<unsigned char>() + partial_bytes);
  GPUFILTER_CUDA_CHECK(cudaMemsetAsync(blocks_done, 0, sizeof(unsigned), ctx.stream));
  kernel<<<grid, kThreads, 0, ctx.stream>>>(segments, src.width, src.height, partials, blocks_done, result);
  check_launch("stats_packed", ctx);
}


// The tree kernel of kind V over src, in one resident wave at most.
template <class T, int C, StatsTree V>
void launch_tree(const ImageView& src, double* result, const char* name, const ExecContext& ctx) {
  const long long pixels = static_cast<long long>(src.width) * src.height;
  constexpr bool kTwoPerThread = V == StatsTree::FirstAdd || V == StatsTree::WarpShuffle;
  launch<T, C>(stats_tree_kernel<T, C, V>, name, blocks_for(pixels, kTwoPerThread ? 2 * kThreads : kThreads), src,
               result, ctx);
}

}  // namespace stats_detail
}  // namespace gpufilter::kernels
