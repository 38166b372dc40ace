// The histogram kernels. Counts gather in 64-bit counters in stream-ordered scratch
// (zeroed, with the blocks-done counter, by one memset); the last block to finish writes
// them as doubles in the layout the op promises (bin-major: bin b, channel c at
// b * channels + c). So the op is one memset and one kernel, nothing on the host between.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "common/device_limits.hpp"
#include "common/dispatch.cuh"
#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "common/stream_buffer.hpp"
#include "reduction/reduction_launch.hpp"
#include "reduction/reduction_tuning.hpp"
#include "reduction/row_walker.cuh"
#include "reduction/segment_walker.cuh"

namespace gpufilter::kernels {
namespace {

constexpr int kThreads = ReductionTuning::kThreads;
constexpr int kWarps = ReductionTuning::kWarps;

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

// The naive kernel: one channel sample per thread, one global atomic per sample.
template <class T, int C>
__global__ void histogram_global_kernel(const unsigned char* base, std::size_t pitch, long long samples_per_row,
                                        int rows, Binning binning, unsigned long long* counts, Publish publish) {
  const long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < samples_per_row) {
    const int c = static_cast<int>(e % C);
    for (long long y = blockIdx.y; y < rows; y += gridDim.y) {
      const int b = binning.bin(__ldg(reinterpret_cast<const T*>(base + y * pitch) + e));
      if (b >= 0) atomicAdd(counts + static_cast<long long>(c) * binning.bins + b, 1ULL);
    }
  }
  publish_counts(counts, C, binning.bins, publish);
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

// Lane-private sub-histograms: kCopies copies of the C * bins counters, counter i of
// copy r at word i * kCopies + r, copy (lane % kCopies) for every warp's lanes. With 32
// copies each lane owns one bank: a warp's 32 atomics land in 32 banks, never on one
// word, whatever the data (a constant image included). The image is walked in segments
// (segment_walker.cuh). kByteBins: u8 with 256 bins over [0, 256]: the bin is the byte.
template <class T, int C, int kCopies, bool kByteBins>
struct LaneHistogramVisitor {
  using Shape = WalkShape<T, C>;
  unsigned* copies;  // shared memory, this lane's copy already added
  int bins;
  Binning binning;

  __device__ __forceinline__ void count(int c, int b) { atomicAdd(copies + (c * bins + b) * kCopies, 1u); }
  __device__ __forceinline__ void sample(int c, T value, unsigned long long) {
    const int b = binning.bin(value);
    if (b >= 0) count(c, b);
  }
  template <int Phase>
  __device__ __forceinline__ void begin_segment() {}
  template <int Phase>
  __device__ __forceinline__ void end_segment() {}
  template <int Phase, bool kFull>
  __device__ __forceinline__ void step(const int4 (&d)[Shape::kGroups][Shape::kChunks], const StepInfo& info) {
#pragma unroll
    for (int k = 0; k < Shape::kGroups; ++k) {
      if (!kFull && !info.valid(k)) continue;
#pragma unroll
      for (int g = 0; g < Shape::kChunks; ++g) {
        for_each_chunk_sample<T>(d[k][g], [&](int j, T sample) {
          const int c = (Phase + g * Shape::kPerChunk + j) % C;
          if constexpr (kByteBins) {
            atomicAdd(copies + (c * 256 + static_cast<int>(sample)) * kCopies, 1u);
          } else {
            const int b = binning.bin(sample);
            if (b >= 0) count(c, b);
          }
        });
      }
    }
  }
};

template <class T, int C, int kCopies, bool kByteBins>
__global__ void __launch_bounds__(ReductionTuning::kLaneThreads) histogram_lane_kernel(Segments segments,
                                                                                        Binning binning,
                                                                                        unsigned long long* counts,
                                                                                        Publish publish) {
  extern __shared__ unsigned lane_copies[];
  const int per_copy = C * binning.bins;
  const int words = per_copy * kCopies;
  for (int i = static_cast<int>(threadIdx.x); i < words; i += static_cast<int>(blockDim.x)) lane_copies[i] = 0;
  __syncthreads();
  LaneHistogramVisitor<T, C, kCopies, kByteBins> visitor{
      lane_copies + static_cast<int>(threadIdx.x % 32) % kCopies, binning.bins, binning};
  walk_segments<T, C>(segments, visitor);
  __syncthreads();
  // Counter i of copy r at word i * kCopies + r: thread i starts at copy i % kCopies, so
  // the threads of a warp read distinct banks.
  for (int i = static_cast<int>(threadIdx.x); i < per_copy; i += static_cast<int>(blockDim.x)) {
    unsigned long long sum = 0;
#pragma unroll 8
    for (int r = 0; r < kCopies; ++r) sum += lane_copies[i * kCopies + ((r + i) & (kCopies - 1))];
    if (sum != 0) atomicAdd(counts + i, sum);
  }
  publish_counts(counts, C, binning.bins, publish);
}

Binning make_binning(const HistogramParams& params, PixelFormat format) {
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

template <class T, int C, int kCopies>
bool launch_private(const ImageView& src, const Binning& binning, unsigned long long* counts, const Publish& publish,
                    const ExecContext& ctx) {
  const std::size_t shared = sizeof(unsigned) * static_cast<std::size_t>(C) * binning.bins * kCopies;
  if (shared > static_cast<std::size_t>(ReductionTuning::kHistogramSharedBytes) ||
      shared > max_shared_memory_per_block())
    return false;
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

template <class T, int C, int kCopies, bool kByteBins>
void launch_lane_kernel(const ImageView& src, const Binning& binning, unsigned long long* counts, std::size_t shared,
                        const Publish& publish, const ExecContext& ctx) {
  auto kernel = histogram_lane_kernel<T, C, kCopies, kByteBins>;
  constexpr int kLaneThreads = ReductionTuning::kLaneThreads;
  // Also opts the kernel in to `shared` bytes (above 48 KiB), once per device.
  const int per_sm = cached_blocks_per_sm(reinterpret_cast<const void*>(kernel), kLaneThreads, shared);
  const Segments segments = make_segments(src.data, src.pitch, src.width, src.height, C, sizeof(T));
  using Shape = WalkShape<T, C>;
  // Enough blocks for every thread to have a few steps, at most one resident wave.
  const long long work =
      segments.whole ? blocks_for(segments.samples / (Shape::kGroupSamples * Shape::kGroups), kLaneThreads)
                     : blocks_for(segments.count, kLaneThreads / 32);
  const long long wave = static_cast<long long>(per_sm) * cached_sm_count();
  const unsigned grid = static_cast<unsigned>(work < 1 ? 1 : (work < wave ? work : wave));
  kernel<<<grid, kLaneThreads, shared, ctx.stream>>>(segments, binning, counts, publish);
  check_launch("histogram_lane_private", ctx);
}

// The most copies that fit the device's shared memory; false where not even the few do.
template <class T, int C>
bool launch_lane_private(const ImageView& src, const Binning& binning, unsigned long long* counts,
                         const Publish& publish, const ExecContext& ctx) {
  const std::size_t per_copy = sizeof(unsigned) * static_cast<std::size_t>(C) * binning.bins;
  const std::size_t limit = max_shared_memory_per_block();
  const bool byte_bins = std::is_same_v<T, std::uint8_t> && binning.by_shift && binning.shift == 0 &&
                         binning.ilo == 0 && binning.ihi >= 255 && binning.bins == 256;
  if (per_copy * ReductionTuning::kLaneCopies <= limit) {
    constexpr int R = ReductionTuning::kLaneCopies;
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      if (byte_bins) {
        launch_lane_kernel<T, C, R, true>(src, binning, counts, per_copy * R, publish, ctx);
        return true;
      }
    }
    launch_lane_kernel<T, C, R, false>(src, binning, counts, per_copy * R, publish, ctx);
    return true;
  }
  if (per_copy * ReductionTuning::kLaneCopiesSmall <= limit) {
    constexpr int R = ReductionTuning::kLaneCopiesSmall;
    launch_lane_kernel<T, C, R, false>(src, binning, counts, per_copy * R, publish, ctx);
    return true;
  }
  return false;
}

template <class T, int C>
void launch_global(const ImageView& src, const Binning& binning, unsigned long long* counts, const Publish& publish,
                   const ExecContext& ctx) {
  const long long samples = static_cast<long long>(src.width) * C;
  const dim3 grid(grid_x(blocks_for(samples, kThreads), "histogram_global_atomic"), grid_y(src.height));
  histogram_global_kernel<T, C><<<grid, kThreads, 0, ctx.stream>>>(static_cast<const unsigned char*>(src.data),
                                                                   src.pitch, samples, src.height, binning, counts,
                                                                   publish);
  check_launch("histogram_global_atomic", ctx);
}

// One kernel of the variant (or its fallback) into zeroed `counts`.
void run_histogram(const ImageView& src, const Binning& binning, unsigned long long* counts, const Publish& publish,
                   HistogramVariant variant, const ExecContext& ctx) {
  visit_format(src.format, [&](auto tag, auto channel_count) {
    using T = typename decltype(tag)::type;
    constexpr int C = decltype(channel_count)::value;
    bool done = false;
    if (variant == HistogramVariant::LanePrivate) done = launch_lane_private<T, C>(src, binning, counts, publish, ctx);
    if (variant == HistogramVariant::WarpPrivate)
      done = launch_private<T, C, kWarps>(src, binning, counts, publish, ctx);
    if (!done && variant != HistogramVariant::GlobalAtomic)
      done = launch_private<T, C, 1>(src, binning, counts, publish, ctx);
    if (!done) launch_global<T, C>(src, binning, counts, publish, ctx);
  });
}

}  // namespace

void launch_histogram_counts(const ImageView& src, unsigned long long* counts, const HistogramParams& params,
                             HistogramVariant variant, const ExecContext& ctx) {
  const std::size_t count_bytes =
      sizeof(unsigned long long) * static_cast<std::size_t>(src.format.channels) * params.bins;
  GPUFILTER_CUDA_CHECK(cudaMemsetAsync(counts, 0, count_bytes, ctx.stream));
  run_histogram(src, make_binning(params, src.format), counts, Publish{nullptr, nullptr}, variant, ctx);
}

// The counts and the blocks-done counter in one scratch allocation, zeroed by one memset;
// the kernel's last block writes `result`.
void launch_histogram(const ImageView& src, double* result, const HistogramParams& params,
                      HistogramVariant variant, const ExecContext& ctx) {
  const std::size_t count_bytes =
      sizeof(unsigned long long) * static_cast<std::size_t>(src.format.channels) * params.bins;
  StreamBuffer scratch(count_bytes + sizeof(unsigned), ctx.stream);
  auto* counts = scratch.get<unsigned long long>();
  auto* blocks_done = reinterpret_cast<unsigned*>(scratch.get<unsigned char>() + count_bytes);
  GPUFILTER_CUDA_CHECK(cudaMemsetAsync(counts, 0, count_bytes + sizeof(unsigned), ctx.stream));
  run_histogram(src, make_binning(params, src.format), counts, Publish{blocks_done, result}, variant, ctx);
}

}  // namespace gpufilter::kernels
