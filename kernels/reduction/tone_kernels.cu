// equalize, threshold and normalize: a histogram (the histogram family's kernels, or
// the luminance histogram below), one block per channel turning it into a lookup table
// (cub::BlockScan for the cumulative counts), and a kernel applying the tables. Three
// launches on one stream; the histogram never leaves the GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cub/block/block_scan.cuh>

#include "common/launch.cuh"
#include "common/occupancy_cache.hpp"
#include "common/pixel.cuh"
#include "common/stream_buffer.hpp"
#include "reduction/reduction_launch.hpp"
#include "reduction/reduction_tuning.hpp"
#include "reduction/segment_walker.cuh"

namespace gpufilter::kernels {
namespace {

constexpr int kBins = 256;
constexpr int kThreads = ReductionTuning::kThreads;
static_assert(kThreads == kBins, "one thread per bin in the table kernel");

// BT.601 luminance of channels in B, G, R order, in 8-bit fixed point (weights sum to 256).
// Channels in R, G, B order (the library's); OpenCV's fixed-point BT.601 weights.
__device__ __forceinline__ int luma(int r, int g, int b) { return (77 * r + 150 * g + 29 * b + 128) >> 8; }

__device__ __forceinline__ unsigned char clamp_u8(int v) {
  return static_cast<unsigned char>(v < 0 ? 0 : (v > 255 ? 255 : v));
}

template <int C>
__global__ void __launch_bounds__(kThreads) luma_histogram_kernel(const unsigned char* base, std::size_t pitch,
                                                                  int width, int height, unsigned long long* counts) {
  __shared__ unsigned h[kBins];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (long long y = blockIdx.x; y < height; y += gridDim.x) {
    const auto* row = reinterpret_cast<const Pixel<std::uint8_t, C>*>(base + y * pitch);
    for (int x = static_cast<int>(threadIdx.x); x < width; x += kThreads) {
      const Pixel<std::uint8_t, C> p = row[x];
      atomicAdd(&h[luma(p.c[0], p.c[1], p.c[2])], 1u);
    }
  }
  __syncthreads();
  if (h[threadIdx.x] != 0) atomicAdd(counts + threadIdx.x, static_cast<unsigned long long>(h[threadIdx.x]));
}

// Otsu's threshold, in cv::threshold's order of operations (rounded steps, no fused
// multiply-adds, so the GPU and OpenCV pick the same bin).
__device__ int otsu(const unsigned long long* h, unsigned long long pixels) {
  const double scale = __ddiv_rn(1.0, static_cast<double>(pixels));
  double mu = 0.0;
  for (int i = 0; i < kBins; ++i) mu = __dadd_rn(mu, __dmul_rn(static_cast<double>(i), static_cast<double>(h[i])));
  mu = __dmul_rn(mu, scale);
  double mu1 = 0.0, q1 = 0.0, max_sigma = 0.0;
  int best = 0;
  for (int i = 0; i < kBins; ++i) {
    const double p_i = __dmul_rn(static_cast<double>(h[i]), scale);
    mu1 = __dmul_rn(mu1, q1);
    q1 = __dadd_rn(q1, p_i);
    const double q2 = __dsub_rn(1.0, q1);
    if (fmin(q1, q2) < FLT_EPSILON || fmax(q1, q2) > __dsub_rn(1.0, FLT_EPSILON)) continue;
    mu1 = __ddiv_rn(__dadd_rn(mu1, __dmul_rn(static_cast<double>(i), p_i)), q1);
    const double mu2 = __ddiv_rn(__dsub_rn(mu, __dmul_rn(q1, mu1)), q2);
    const double d = __dsub_rn(mu1, mu2);
    const double sigma = __dmul_rn(__dmul_rn(__dmul_rn(q1, q2), d), d);
    if (sigma > max_sigma) {
      max_sigma = sigma;
      best = i;
    }
  }
  return best;
}

// Block l builds table l from histogram l (counts + l * 256).
__global__ void __launch_bounds__(kThreads) build_table_kernel(const unsigned long long* counts, ToneSettings settings,
                                                               unsigned long long pixels, unsigned char* tables) {
  using Scan = cub::BlockScan<unsigned long long, kBins>;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ unsigned long long hist[kBins];
  __shared__ unsigned long long cdf[kBins];
  __shared__ int first, lo, hi, otsu_t;
  const int v = static_cast<int>(threadIdx.x);
  unsigned char* table = tables + blockIdx.x * kBins;
  if (settings.mode == ToneMode::ThresholdValue) {
    table[v] = v > settings.threshold ? 255 : 0;
    return;
  }
  const unsigned long long count = counts[blockIdx.x * kBins + v];
  unsigned long long inclusive = 0;
  Scan(scan_storage).InclusiveSum(count, inclusive);
  hist[v] = count;
  cdf[v] = inclusive;
  if (v == 0) {
    first = kBins;
    lo = kBins;
    hi = -1;
  }
  __syncthreads();
  const unsigned long long total = cdf[kBins - 1];
  switch (settings.mode) {
    case ToneMode::ThresholdOtsu:
      if (v == 0) otsu_t = otsu(hist, total);
      __syncthreads();
      table[v] = v > otsu_t ? 255 : 0;
      return;
    case ToneMode::Normalize: {
      if (static_cast<double>(inclusive) > settings.clip_count) atomicMin(&lo, v);
      if (static_cast<double>(total - (inclusive - count)) > settings.clip_count) atomicMax(&hi, v);
      __syncthreads();
      if (hi <= lo) {
        table[v] = static_cast<unsigned char>(v);
      } else if (v <= lo) {
        table[v] = 0;
      } else if (v >= hi) {
        table[v] = 255;
      } else {
        const int span = hi - lo;
        table[v] = static_cast<unsigned char>(((v - lo) * 510 + span) / (2 * span));
      }
      return;
    }
    default: {  // equalize, as cv::equalizeHist
      if (count != 0) atomicMin(&first, v);
      __syncthreads();
      const int i0 = first;
      if (hist[i0] == total) {
        table[v] = static_cast<unsigned char>(v);  // one value: unchanged
        return;
      }
      if (v <= i0) {
        table[v] = 0;
        return;
      }
      const float scale = __fdiv_rn(255.0f, __ll2float_rn(static_cast<long long>(total - hist[i0])));
      const long long sum = static_cast<long long>(inclusive - cdf[i0]);
      table[v] = clamp_u8(__float2int_rn(__fmul_rn(__ll2float_rn(sum), scale)));
      return;
    }
  }
}

// Tables: `tables` of them, 256 entries each; one per colour channel, or one shared by
// all (gray, or `luma`: the luminance table, each colour channel moved by lut[Y] - Y).
template <int C>
__global__ void __launch_bounds__(kThreads) apply_tables_kernel(const unsigned char* src, std::size_t src_pitch,
                                                                unsigned char* dst, std::size_t dst_pitch, int width,
                                                                int height, const unsigned char* tables,
                                                                int table_count, bool luma_mode) {
  __shared__ unsigned char t[3 * kBins];
  for (int i = static_cast<int>(threadIdx.x); i < table_count * kBins; i += kThreads) t[i] = tables[i];
  __syncthreads();
  const long long x = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= width) return;
  for (long long y = blockIdx.y; y < height; y += gridDim.y) {
    const Pixel<std::uint8_t, C> in = reinterpret_cast<const Pixel<std::uint8_t, C>*>(src + y * src_pitch)[x];
    Pixel<std::uint8_t, C> out = in;
    if constexpr (C >= 3) {
      if (luma_mode) {
        const int yv = luma(in.c[0], in.c[1], in.c[2]);
        const int delta = t[yv] - yv;
#pragma unroll
        for (int c = 0; c < 3; ++c) out.c[c] = clamp_u8(in.c[c] + delta);
      } else {
#pragma unroll
        for (int c = 0; c < 3; ++c) out.c[c] = t[(table_count == 1 ? 0 : c) * kBins + in.c[c]];
      }
    } else {
      out.c[0] = t[in.c[0]];
    }
    reinterpret_cast<Pixel<std::uint8_t, C>*>(dst + y * dst_pitch)[x] = out;
  }
}

// Gray images whose source and destination rows share their alignment: 16-byte loads
// and stores, whole images as one segment (segment_walker.cuh's teams). The table is
// replicated per lane (entry v of lane l at word v * 32 + l, 32 KiB), so the 32 lookups
// of a warp fall in 32 banks whatever the data; a 256-byte table would serialize them.
__global__ void __launch_bounds__(kThreads) apply_gray_table_kernel(Segments segments, unsigned char* dst,
                                                                    std::size_t dst_pitch,
                                                                    const unsigned char* table) {
  __shared__ unsigned t[kBins * 32];
  for (int i = static_cast<int>(threadIdx.x); i < kBins * 32; i += kThreads) t[i] = table[i / 32];
  __syncthreads();
  const unsigned* mine = t + threadIdx.x % 32;
  const Team team = make_team(segments);
  constexpr int kLoads = ReductionTuning::kGroupsInFlight;
  for (long long seg = team.first_segment; seg < segments.count; seg += team.segment_step) {
    const unsigned char* in = segments.base + static_cast<std::size_t>(seg) * segments.pitch;
    unsigned char* out = dst + static_cast<std::size_t>(seg) * dst_pitch;
    const auto addr = reinterpret_cast<std::uintptr_t>(in);
    long long head = static_cast<long long>((16 - addr % 16) % 16);
    if (head > segments.samples) head = segments.samples;
    const long long chunks = (segments.samples - head) / 16;
    const long long body_end = head + chunks * 16;
    for (long long e = team.lane; e < head; e += team.lanes) out[e] = static_cast<unsigned char>(mine[in[e] * 32]);
    for (long long e = body_end + team.lane; e < segments.samples; e += team.lanes)
      out[e] = static_cast<unsigned char>(mine[in[e] * 32]);
    const int4* src4 = reinterpret_cast<const int4*>(in + head);
    int4* dst4 = reinterpret_cast<int4*>(out + head);
    for (long long first = team.lane; first < chunks; first += team.lanes * kLoads) {
      int4 v[kLoads];
#pragma unroll
      for (int k = 0; k < kLoads; ++k) {
        const long long i = first + k * team.lanes;
        if (i < chunks) v[k] = __ldg(src4 + i);
      }
#pragma unroll
      for (int k = 0; k < kLoads; ++k) {
        const long long i = first + k * team.lanes;
        if (i >= chunks) continue;
        union {
          int4 v;
          unsigned char b[16];
        } u;
        u.v = v[k];
#pragma unroll
        for (int j = 0; j < 16; ++j) u.b[j] = static_cast<unsigned char>(mine[u.b[j] * 32]);
        dst4[i] = u.v;
      }
    }
  }
}

int resident_blocks() {
  return cached_sm_count() * ReductionTuning::kMaxBlocksPerSm;
}

// False where the source and destination rows do not share their 16-byte alignment.
bool launch_gray_vectorized(const ImageView& src, const ImageView& dst, const unsigned char* table,
                            const ExecContext& ctx) {
  const Segments in = make_segments(src.data, src.pitch, src.width, src.height, 1, 1);
  const Segments out = make_segments(dst.data, dst.pitch, dst.width, dst.height, 1, 1);
  const auto src_addr = reinterpret_cast<std::uintptr_t>(src.data);
  const auto dst_addr = reinterpret_cast<std::uintptr_t>(dst.data);
  if (in.whole != out.whole || src_addr % 16 != dst_addr % 16) return false;
  if (!in.whole && (src.pitch % 16 != 0 || dst.pitch % 16 != 0)) return false;
  const int per_sm = cached_blocks_per_sm(reinterpret_cast<const void*>(apply_gray_table_kernel), kThreads, 0);
  const long long wave = static_cast<long long>(per_sm) * cached_sm_count();
  const long long work = in.whole ? blocks_for(in.samples / (16 * ReductionTuning::kGroupsInFlight), kThreads)
                                  : blocks_for(in.count, ReductionTuning::kWarps);
  const unsigned grid = static_cast<unsigned>(std::clamp<long long>(work, 1, wave));
  apply_gray_table_kernel<<<grid, kThreads, 0, ctx.stream>>>(in, static_cast<unsigned char*>(dst.data), dst.pitch,
                                                             table);
  check_launch("apply_gray_table_kernel", ctx);
  return true;
}

template <int C>
void run_tone(const ImageView& src, const ImageView& dst, const ToneSettings& settings,
              const HistogramStage& histogram, const ExecContext& ctx) {
  const bool luma_mode = settings.mode == ToneMode::EqualizeLuma && C >= 3;
  const int table_count = (C == 1 || luma_mode) ? 1 : 3;
  const std::size_t count_bytes = sizeof(unsigned long long) * kBins * C;
  StreamBuffer scratch(count_bytes + static_cast<std::size_t>(table_count) * kBins, ctx.stream);
  auto* counts = scratch.get<unsigned long long>();
  auto* tables = scratch.get<unsigned char>() + count_bytes;
  const auto* src_bytes = static_cast<const unsigned char*>(src.data);

  if (luma_mode) {
    GPUFILTER_CUDA_CHECK(cudaMemsetAsync(counts, 0, sizeof(unsigned long long) * kBins, ctx.stream));
    const unsigned grid = static_cast<unsigned>(std::min<long long>(src.height, resident_blocks()));
    luma_histogram_kernel<C><<<grid, kThreads, 0, ctx.stream>>>(src_bytes, src.pitch, src.width, src.height, counts);
    check_launch("luma_histogram_kernel", ctx);
  } else if (settings.mode != ToneMode::ThresholdValue) {
    histogram(src, counts, HistogramParams{kBins, 0.0, 256.0}, ctx);
  }
  const unsigned long long pixels = static_cast<unsigned long long>(src.width) * static_cast<unsigned>(src.height);
  build_table_kernel<<<table_count, kThreads, 0, ctx.stream>>>(counts, settings, pixels, tables);
  check_launch("build_table_kernel", ctx);
  if (C == 1 && launch_gray_vectorized(src, dst, tables, ctx)) return;
  const dim3 grid(grid_x(blocks_for(src.width, kThreads), "apply_tables_kernel"), grid_y(src.height));
  apply_tables_kernel<C><<<grid, kThreads, 0, ctx.stream>>>(src_bytes, src.pitch, static_cast<unsigned char*>(dst.data),
                                                            dst.pitch, src.width, src.height, tables, table_count,
                                                            luma_mode);
  check_launch("apply_tables_kernel", ctx);
}

}  // namespace

void launch_tone(const ImageView& src, const ImageView& dst, const ToneSettings& settings,
                 const HistogramStage& histogram, const ExecContext& ctx) {
  switch (src.format.channels) {
    case 1: run_tone<1>(src, dst, settings, histogram, ctx); return;
    case 3: run_tone<3>(src, dst, settings, histogram, ctx); return;
    case 4: run_tone<4>(src, dst, settings, histogram, ctx); return;
  }
  throw Error(ErrorCode::UnsupportedFormat, "tone ops take u8 images of 1, 3 or 4 channels");
}

}  // namespace gpufilter::kernels
