#pragma once
// The histogram kernels the library and the lab share (the library's global and lane
// kernels are in histogram_kernels.cu; the lab runs the private one with a copy per warp).
// Counts gather in 64-bit counters in stream-ordered scratch
// (zeroed, with the blocks-done counter, by one memset); the last block to finish writes
// them as doubles in the layout the op promises (bin-major: bin b, channel c at
// b * channels + c). So the op is one memset and one kernel, nothing on the host between.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "common/device_limits.hpp"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "common/stream_buffer.hpp"
#include "gpufilter/reduction_types.hpp"
#include "reduction/reduction_tuning.hpp"
#include "reduction/row_walker.cuh"

namespace gpufilter::kernels {
namespace histogram_detail {

inline constexpr int kThreads = ReductionTuning::kThreads;
inline constexpr int kWarps = ReductionTuning::kWarps;

// Which bin a sample falls in, or -1. Integer images whose bins are a power-of-two
// number of whole values wide (u8 with 256 bins, u16 with 256 or 65536 bins, ...) take
// the shift, which gives the same bins as the double formula; the rest take the formula.
struct Binning {
  int bins;
  double lo, hi, scale;  // scale = bins / (hi - lo)
  bool by_shift;         // integer images: bin = (v - ilo) >> shift for ilo <= v <= ihi
  int ilo, ihi, shift;

  template <class T>
  __device__ __forceinline__ int bin(T sample) const {
    if constexpr (!std::is_same_v<T, float>) {
      if (by_shift) {
        const int v = static_cast<int>(sample);
        if (v < ilo || v > ihi) return -1;
        return min((v - ilo) >> shift, bins - 1);
      }
    }
    const double v = static_cast<double>(sample);
    if (!(v >= lo && v <= hi)) return -1;  // NaN too
    const int b = static_cast<int>(floor(__dmul_rn(__dsub_rn(v, lo), scale)));
    return min(b, bins - 1);
  }
};

// Where the finished counts go: `result` null leaves them as counts (the tone ops read
// them); else the last block of the grid converts them into `result`.
struct Publish {
  unsigned* blocks_done;  // zeroed with the counts
  double* result;
};

// Every thread of every block calls this after its last atomic into `counts`. The last
// block to arrive writes counts[c][b] as result[b][c] (doubles, exact below 2^53),
// reading the counters past L1 (other SMs' atomics are in L2).
__device__ __forceinline__ void publish_counts(const unsigned long long* counts, int channels, int bins,
                                               const Publish& publish) {
  if (publish.result == nullptr) return;
  __threadfence();  // this thread's atomics are visible before the block counts itself done
  __syncthreads();
  const unsigned threads = blockDim.x * blockDim.y;
  const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  // No static shared memory (the lane kernel may take the device's whole opt-in): the
  // barrier itself tells every thread whether thread 0 saw the last arrival.
  const bool last_arrival = tid == 0 && atomicAdd(publish.blocks_done, 1u) == gridDim.x * gridDim.y - 1;
  if (!__syncthreads_or(last_arrival)) return;
  __threadfence();
  for (unsigned i = tid; i < static_cast<unsigned>(channels * bins); i += threads) {
    const unsigned b = i / static_cast<unsigned>(channels), c = i % static_cast<unsigned>(channels);
    publish.result[i] = static_cast<double>(__ldcg(counts + c * static_cast<unsigned>(bins) + b));
  }
}

// Private sub-histograms in shared memory (copies of C * bins counters): one per block
// (kCopies = 1) or one per warp (kCopies = kWarps). Per-warp copies spread the atomics of
// different warps; within a warp, lanes whose samples fall in the same bin are merged
// first (__match_any_sync), one atomic adding the group's size, so a flat image costs one
// shared atomic per warp and channel instead of 32 serialized ones.
template <class T, int C, int kCopies>
__global__ void __launch_bounds__(kThreads) histogram_private_kernel(const unsigned char* base, std::size_t pitch,
                                                                     int width, int height, Binning binning,
                                                                     unsigned long long* counts, Publish publish) {
  extern __shared__ unsigned shared_counts[];
  const int per_copy = C * binning.bins;
  for (int i = static_cast<int>(threadIdx.x); i < per_copy * kCopies; i += kThreads) shared_counts[i] = 0;
  __syncthreads();
  unsigned* mine = shared_counts + (kCopies == 1 ? 0 : static_cast<int>(threadIdx.x / 32) * per_copy);
  auto visit = [&](int c, T value, long long, long long) {
    const int b = binning.bin(value);
    if constexpr (kCopies == 1) {
      if (b >= 0) atomicAdd(mine + c * binning.bins + b, 1u);
    } else {
      const int key = b < 0 ? -1 : c * binning.bins + b;
      const unsigned active = __activemask();
      const unsigned peers = __match_any_sync(active, key);
      const int leader = __ffs(peers) - 1;
      if (key >= 0 && static_cast<int>(threadIdx.x % 32) == leader) atomicAdd(mine + key, __popc(peers));
    }
  };
  auto no_step = [] {};
  walk_rows_vec16<T, C>(base, pitch, width, height, visit, no_step);
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < per_copy; i += kThreads) {
    unsigned long long sum = 0;
#pragma unroll
    for (int k = 0; k < kCopies; ++k) sum += shared_counts[k * per_copy + i];
    if (sum != 0) atomicAdd(counts + i, sum);
  }
  publish_counts(counts, C, binning.bins, publish);
}

inline Binning make_binning(const HistogramParams& params, PixelFormat format) {
  Binning binning{};
  binning.bins = params.bins;
  binning.lo = params.lo;
  binning.hi = params.hi;
  binning.scale = static_cast<double>(params.bins) / (params.hi - params.lo);
  binning.by_shift = false;
  if (format.type != ChannelType::F32 && params.lo == std::floor(params.lo) && params.hi == std::floor(params.hi) &&
      params.lo >= -1e9 && params.hi <= 1e9) {
    const double width = (params.hi - params.lo) / params.bins;  // values per bin
    int shift = 0;
    while (shift < 30 && std::ldexp(1.0, shift) < width) ++shift;
    if (std::ldexp(1.0, shift) == width) {
      binning.by_shift = true;
      binning.shift = shift;
      binning.ilo = static_cast<int>(params.lo);
      binning.ihi = static_cast<int>(params.hi);
    }
  }
  return binning;
}

// Whether `copies` sub-histograms of `channels` * `bins` counters fit a block's shared memory.
inline bool private_fits(int channels, int bins, int copies) {
  const std::size_t shared = sizeof(unsigned) * static_cast<std::size_t>(channels) * bins * copies;
  return shared <= static_cast<std::size_t>(ReductionTuning::kHistogramSharedBytes) &&
         shared <= max_shared_memory_per_block();
}

// The private kernel with kCopies copies; false (launching nothing) where they do not fit.
template <class T, int C, int kCopies>
bool launch_private(const ImageView& src, const Binning& binning, unsigned long long* counts, const Publish& publish,
                    const ExecContext& ctx) {
  if (!private_fits(C, binning.bins, kCopies)) return false;
  const std::size_t shared = sizeof(unsigned) * static_cast<std::size_t>(C) * binning.bins * kCopies;
  auto kernel = histogram_private_kernel<T, C, kCopies>;
  int per_sm = cached_blocks_per_sm(reinterpret_cast<const void*>(kernel), kThreads, shared);
  per_sm = per_sm > ReductionTuning::kMaxBlocksPerSm ? ReductionTuning::kMaxBlocksPerSm : per_sm;
  const long long wave = static_cast<long long>(per_sm) * cached_sm_count();
  const unsigned grid = static_cast<unsigned>(src.height < wave ? src.height : wave);
  kernel<<<grid, kThreads, shared, ctx.stream>>>(static_cast<const unsigned char*>(src.data), src.pitch, src.width,
                                                 src.height, binning, counts, publish);
  check_launch(kCopies == 1 ? "histogram_shared_private" : "histogram_warp_private", ctx);
  return true;
}

}  // namespace histogram_detail

// The counts of src's histogram into `counts` (device memory, channel-major, zeroed
// here on the stream): run(binning, counts, publish) launches the kernel.
template <class Run>
void histogram_counts(const ImageView& src, unsigned long long* counts, const HistogramParams& params, Run&& run,
                      const ExecContext& ctx) {
  using namespace histogram_detail;
  const std::size_t count_bytes =
      sizeof(unsigned long long) * static_cast<std::size_t>(src.format.channels) * params.bins;
  GPUFILTER_CUDA_CHECK(cudaMemsetAsync(counts, 0, count_bytes, ctx.stream));
  run(make_binning(params, src.format), counts, Publish{nullptr, nullptr});
}

// The histogram as doubles into `result`: the counts and the blocks-done counter in one
// scratch allocation, zeroed by one memset; the kernel's last block writes `result`.
template <class Run>
void histogram_result(const ImageView& src, double* result, const HistogramParams& params, Run&& run,
                      const ExecContext& ctx) {
  using namespace histogram_detail;
  const std::size_t count_bytes =
      sizeof(unsigned long long) * static_cast<std::size_t>(src.format.channels) * params.bins;
  StreamBuffer scratch(count_bytes + sizeof(unsigned), ctx.stream);
  auto* counts = scratch.get<unsigned long long>();
  auto* blocks_done = reinterpret_cast<unsigned*>(scratch.get<unsigned char>() + count_bytes);
  GPUFILTER_CUDA_CHECK(cudaMemsetAsync(counts, 0, count_bytes + sizeof(unsigned), ctx.stream));
  run(make_binning(params, src.format), counts, Publish{blocks_done, result});
}

}  // namespace gpufilter::kernels
