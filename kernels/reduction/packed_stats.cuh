#pragma once
// Visitors of the packed stats kernel (segment_walker.cuh).
//
// u8: each 32-bit word of a group is four samples, handled together:
//  - sums: lo = w & 0x00ff00ff and hi = (w >> 8) & 0x00ff00ff spread the four bytes over
//    four 16-bit lanes, added per step (at most 16 words of 255 per lane: no carry);
//  - sums of squares with __dp4a, exact in 32 bits per step: dp4a(w, w) is all four
//    squares, dp4a(lo, lo) lanes 0 and 2, dp4a(w & 0xff, w) lane 0, dp4a(w & 0xff00, w)
//    lane 1; the rest follow by subtraction;
//  - min/max: no per-sample compare. The current minimum t of each lane's channel is
//    kept as 256 - t in the 16-bit lanes of nmin; lo + nmin has bit 8 of a lane clear
//    exactly when that sample is below t (likewise 256 + max - lo for the maximum).
//    One AND per group of the step tells whether any of its samples improved on a minimum
//    or a maximum; only such groups are replayed sample by sample with positions (track()).
//    A u8 minimum can fall at most 255 times per thread, so the replay is rare on any
//    image: random data finds 0 and 255 early, constant data never improves.
// At every step the lane sums are widened into the 64-bit per-channel sums. A lane's
// channel is (Phase + 4 * (word % P) + lane) % C, with P = 3 for three-channel groups
// (the channels of the words repeat every three words), else 1: compile-time constants.
#include <cstdint>

#include "reduction/byte_lane_sums.cuh"
#include "reduction/segment_walker.cuh"
#include "reduction/stats_accumulator.cuh"

namespace gpufilter::kernels {

template <class T, int C>
__device__ __forceinline__ void add_runtime_channel(StatsAcc<T, C>& a, int c, T value, unsigned long long position) {
#pragma unroll
  for (int cc = 0; cc < C; ++cc)
    if (cc == c) a.add(cc, value, [position] { return position; });
}

// Any sample type: every sample through StatsAcc::add (u16, f32).
template <class T, int C>
struct SampleStatsVisitor {
  using Shape = WalkShape<T, C>;
  StatsAcc<T, C>& a;

  __device__ __forceinline__ void sample(int c, T value, unsigned long long position) {
    add_runtime_channel(a, c, value, position);
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
      // Groups start on channel Phase: sample s is pixel pixel0 + (Phase + s) / C.
      const long long e0 = info.head + info.group(k) * Shape::kGroupSamples;
      const unsigned long long pixel0 = info.pixel_base + static_cast<unsigned long long>((e0 - Phase) / C);
#pragma unroll
      for (int g = 0; g < Shape::kChunks; ++g) {
        for_each_chunk_sample<T>(d[k][g], [&](int j, T sample) {
          const int s = g * Shape::kPerChunk + j;
          a.add((Phase + s) % C, sample, [&] { return pixel0 + (Phase + s) / C; });
        });
      }
    }
  }
};

template <int C>
struct PackedByteStatsVisitor {
  using T = std::uint8_t;
  using Shape = WalkShape<T, C>;
  static constexpr int P = C == 3 ? 3 : 1;
  static constexpr unsigned kLaneBit = 0x01000100u;  // bit 8 of both 16-bit lanes
  StatsAcc<T, C>& a;
  unsigned nmin_lo[P], nmin_hi[P], nmax_lo[P], nmax_hi[P];

  __device__ __forceinline__ void sample(int c, T value, unsigned long long position) {
    add_runtime_channel(a, c, value, position);
  }

  // The thresholds from the accumulator, for words of this phase.
  template <int Phase>
  __device__ __forceinline__ void rebuild() {
#pragma unroll
    for (int p = 0; p < P; ++p) {
      unsigned nmin[4], nmax[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int c = (Phase + 4 * p + j) % C;
        const int tmin = a.min[c] < 256 ? a.min[c] : 256;  // no minimum yet: every sample is below 256
        nmin[j] = static_cast<unsigned>(256 - tmin);
        nmax[j] = static_cast<unsigned>(256 + a.max[c]);  // no maximum yet: a.max is -1
      }
      nmin_lo[p] = nmin[0] | nmin[2] << 16;
      nmin_hi[p] = nmin[1] | nmin[3] << 16;
      nmax_lo[p] = nmax[0] | nmax[2] << 16;
      nmax_hi[p] = nmax[1] | nmax[3] << 16;
    }
  }

  template <int Phase>
  __device__ __forceinline__ void begin_segment() {
    rebuild<Phase>();
  }
  template <int Phase>
  __device__ __forceinline__ void end_segment() {}

  template <int Phase, bool kFull>
  __device__ __forceinline__ void step(const int4 (&d)[Shape::kGroups][Shape::kChunks], const StepInfo& info) {
    unsigned s_lo[P], s_hi[P], q_all[P];
    [[maybe_unused]] unsigned q_02[P], q_0[P], q_1[P];  // per-lane squares: unused for gray
#pragma unroll
    for (int p = 0; p < P; ++p) s_lo[p] = s_hi[p] = q_all[p] = q_02[p] = q_0[p] = q_1[p] = 0;
    unsigned flags[Shape::kGroups];  // per group: a lane bit 8 clear = some sample beat a bound
#pragma unroll
    for (int k = 0; k < Shape::kGroups; ++k) {
      flags[k] = ~0u;
      if (!kFull && !info.valid(k)) continue;
#pragma unroll
      for (int g = 0; g < Shape::kChunks; ++g) {
        const unsigned words[4] = {static_cast<unsigned>(d[k][g].x), static_cast<unsigned>(d[k][g].y),
                                   static_cast<unsigned>(d[k][g].z), static_cast<unsigned>(d[k][g].w)};
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const int p = (g * 4 + i) % P;
          const unsigned w = words[i];
          const unsigned lo = w & 0x00ff00ffu;
          const unsigned hi = (w >> 8) & 0x00ff00ffu;
          s_lo[p] += lo;
          s_hi[p] += hi;
          q_all[p] = __dp4a(w, w, q_all[p]);
          if constexpr (C != 1) {
            q_02[p] = __dp4a(lo, lo, q_02[p]);
            q_0[p] = __dp4a(w & 0xffu, w, q_0[p]);
            q_1[p] = __dp4a(w & 0xff00u, w, q_1[p]);
          }
          flags[k] &= (lo + nmin_lo[p]) & (hi + nmin_hi[p]) & (nmax_lo[p] - lo) & (nmax_hi[p] - hi);
        }
      }
    }
    // Widen the lane sums into the channels' 64-bit sums.
    unsigned cs[C], cq[C];
    byte_lane_sums_to_channels<Phase, C, P>(s_lo, s_hi, q_all, q_02, q_0, q_1, cs, cq);
#pragma unroll
    for (int c = 0; c < C; ++c) {
      a.sum[c] += cs[c];
      a.sum_sq[c] += cq[c];
    }
    // Replay only the groups that tripped, in order. A group tested against the step's
    // starting bounds may trip needlessly after an earlier replay tightened them (the
    // replay then changes nothing), but never misses: bounds only tighten.
    unsigned all = kLaneBit;
#pragma unroll
    for (int k = 0; k < Shape::kGroups; ++k) all &= flags[k];
    if (all != kLaneBit) {
#pragma unroll
      for (int k = 0; k < Shape::kGroups; ++k)
        if ((flags[k] & kLaneBit) != kLaneBit) replay_group<Phase>(d[k], info, k);
      rebuild<Phase>();
    }
  }

  // Some sample of group k beat a minimum or maximum: its samples in order, with positions.
  template <int Phase>
  __device__ __forceinline__ void replay_group(const int4 (&group)[Shape::kChunks], const StepInfo& info, int k) {
    // The group starts on channel Phase, so sample s is pixel pixel0 + (Phase + s) / C:
    // a constant offset, no division per sample.
    const long long e0 = info.head + info.group(k) * Shape::kGroupSamples;
    const unsigned long long pixel0 = info.pixel_base + static_cast<unsigned long long>((e0 - Phase) / C);
#pragma unroll
    for (int g = 0; g < Shape::kChunks; ++g) {
      for_each_chunk_sample<std::uint8_t>(group[g], [&](int j, std::uint8_t sample) {
        const int s = g * 16 + j;
        a.track((Phase + s) % C, static_cast<int>(sample), [&] { return pixel0 + (Phase + s) / C; });
      });
    }
  }
};

}  // namespace gpufilter::kernels
