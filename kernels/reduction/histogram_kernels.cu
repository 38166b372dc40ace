// The library's histogram kernels: one global atomic a sample (the naive one), a
// sub-histogram per block (histogram_kernels.cuh) and 32 lane-private ones per block; the
// lab runs the shared kernel with a copy per warp.
#include <cuda_runtime.h>

#include <cstdint>

#include "common/dispatch.cuh"
#include "reduction/histogram_kernels.cuh"
#include "reduction/reduction_launch.hpp"
#include "reduction/segment_walker.cuh"

namespace gpufilter::kernels {
namespace {

using namespace histogram_detail;

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
    if (!done && variant != HistogramVariant::GlobalAtomic)
      done = launch_private<T, C, 1>(src, binning, counts, publish, ctx);
    if (!done) launch_global<T, C>(src, binning, counts, publish, ctx);
  });
}

}  // namespace

void launch_histogram_counts(const ImageView& src, unsigned long long* counts, const HistogramParams& params,
                             HistogramVariant variant, const ExecContext& ctx) {
  histogram_counts(
      src, counts, params,
      [&](const Binning& binning, unsigned long long* c, const Publish& publish) {
        run_histogram(src, binning, c, publish, variant, ctx);
      },
      ctx);
}

void launch_histogram(const ImageView& src, double* result, const HistogramParams& params,
                      HistogramVariant variant, const ExecContext& ctx) {
  histogram_result(
      src, result, params,
      [&](const Binning& binning, unsigned long long* c, const Publish& publish) {
        run_histogram(src, binning, c, publish, variant, ctx);
      },
      ctx);
}

}  // namespace gpufilter::kernels
