#pragma once
// Visitors of the packed stats kernel (segment_walker.cuh).
//
// u8: each 32-bit word of a group is four samples, handled together:
//  - sums and sums of squares in 16-bit lanes and __dp4a (ByteLaneSums,
//    byte_lane_sums.cuh), restarted every step (at most 16 words of 255 per lane: no carry);
//  - min/max: no per-sample compare (ByteLaneBounds). One AND per group of the step tells whether any of its samples improved on a minimum
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
  static constexpr unsigned kLaneBit = ByteLaneBounds<C, P>::kLaneBit;
  StatsAcc<T, C>& a;
  ByteLaneBounds<C, P> bounds;

  __device__ __forceinline__ void sample(int c, T value, unsigned long long position) {
    add_runtime_channel(a, c, value, position);
  }

  // The thresholds from the accumulator, for words of this phase.
  template <int Phase>
  __device__ __forceinline__ void rebuild() {
    int tmin[C], tmax[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      tmin[c] = a.min[c] < 256 ? a.min[c] : 256;  // no minimum yet: every sample is below 256
      tmax[c] = a.max[c];                         // no maximum yet: a.max is -1
    }
    bounds.template set<Phase>(tmin, tmax);
  }

  template <int Phase>
  __device__ __forceinline__ void begin_segment() {
    rebuild<Phase>();
  }
  template <int Phase>
  __device__ __forceinline__ void end_segment() {}

  template <int Phase, bool kFull>
  __device__ __forceinline__ void step(const int4 (&d)[Shape::kGroups][Shape::kChunks], const StepInfo& info) {
    ByteLaneSums<C, P> sums;
    sums.clear();
    unsigned flags[Shape::kGroups];  // per group: a lane bit 8 clear = some sample beat a bound
#pragma unroll
    for (int k = 0; k < Shape::kGroups; ++k) {
      flags[k] = ~0u;
      if (!kFull && !info.valid(k)) continue;
      for_each_group_word<P>(d[k], [&](int p, unsigned w) {
        const unsigned lo = even_bytes(w), hi = odd_bytes(w);
        sums.add(p, w, lo, hi);
        flags[k] &= bounds.test(p, lo, hi);
      });
    }
    // Widen the lane sums into the channels' 64-bit sums.
    unsigned cs[C], cq[C];
    sums.template to_channels<Phase>(cs, cq);
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
