#pragma once
// The u8 visitor of the `packed_warp` stats kernel (segment_walker.cuh): the packed
// arithmetic of packed_stats.cuh, with the minimum/maximum thresholds shared by the warp
// and with nothing 64-bit in the hot loop.
//
// Why: in `packed` every lane tests its samples against its own minima and maxima, and
// a group that beats one is replayed sample by sample. A lane's own record falls
// roughly 1/g of the time at its g-th group, per channel bound; a warp executes the
// replay when any of its 32 lanes needs it, so on random data nearly every group of a
// thread's first hundred is replayed by the warp. Here the thresholds are the warp's
// best values (a warp reduction after each step in which some lane improved on them):
// a sample must beat all 32 lanes' records to trip the test, and on random u8 data the
// warp's bounds reach 0 and 255 within a few steps, after which nothing trips.
//
// Positions stay exact. Each lane keeps its own records (value, first position among
// the samples it examined); a group is examined (replayed) when some sample of it beats
// the warp's threshold at the start of the step. The warp's steps visit increasing
// positions (step s + 1 starts past every group of step s), so the first occurrence p*
// of the final minimum m* cannot have been preceded by m* in an earlier step: at p*'s
// step the threshold is above m*, p*'s group is replayed, and its lane records (m*, p*)
// (its first m*). Records are merged smallest value, then smallest position, so the
// grid's result is (m*, p*). Samples that were not examined are never smaller than a
// record the warp holds, so they cannot be the answer.
//
// Registers: the lane sums of packed_stats.cuh are kept over kWidenSteps steps (16-bit
// lanes hold 256 words of 255) and then added into per-thread 64-bit sums in shared
// memory; the records live in shared memory too (one slot per thread: read only when a
// group is replayed or the thresholds rebuilt, which is rare). The hot loop holds the
// loaded chunks, the thresholds and the lane sums only, so the kernel fits the register
// budget of several blocks per SM (ReductionTuning::kPackedWarpMinBlocks) and keeps
// more loads in flight per SM.
#include <cstdint>

#include "reduction/byte_lane_sums.cuh"
#include "reduction/segment_walker.cuh"
#include "reduction/stats_accumulator.cuh"

namespace gpufilter::kernels {

__device__ __forceinline__ int warp_min_int(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_min_sync(0xffffffffu, v);
#else
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = min(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
#endif
}

__device__ __forceinline__ int warp_max_int(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(0xffffffffu, v);
#else
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
#endif
}

// kThreads: the block size. `slots` holds, per channel and thread (slot threadIdx.x),
// the thread's records and 64-bit sums; each thread touches only its own slot. Steps:
// the walk shape (reduction_tuning.hpp) the visitor is walked with.
template <int C, int kThreads, class Steps = SegmentWalk>
struct WarpBoundByteVisitor {
  using T = std::uint8_t;
  using Shape = WalkShape<T, C, Steps>;
  static constexpr int P = C == 3 ? 3 : 1;
  static constexpr unsigned kLaneBit = ByteLaneBounds<C, P>::kLaneBit;
  // Words added into one lane sum per step, and the steps a 16-bit lane can take (each
  // word adds at most 255; 256 * 255 < 65536).
  static constexpr int kWordsPerPattern = Shape::kGroups * Shape::kChunks * 4 / P;
  static constexpr int kWidenSteps = 256 / kWordsPerPattern;
  static_assert(kWidenSteps >= 1, "a step must not overflow the 16-bit lane sums");
  static_assert(static_cast<unsigned long long>(kWidenSteps) * kWordsPerPattern * 4 * 255 * 255 < (1ULL << 32),
                "the 32-bit sums of squares must not overflow between widenings");

  StatsShared<T, C, kThreads>& slots;
  int tid;
  int steps;
  ByteLaneBounds<C, P> bounds;  // the warp's thresholds
  ByteLaneSums<C, P> sums;      // since the last widening

  __device__ explicit WarpBoundByteVisitor(StatsShared<T, C, kThreads>& shared)
      : slots(shared), tid(static_cast<int>(threadIdx.x)), steps(0) {
    slots.store(tid, StatsAcc<T, C>::identity());
    sums.clear();
  }

  // This thread's records, kept (value, first position) as StatsAcc::track does.
  __device__ __forceinline__ void record(int c, int v, unsigned long long position) {
    if (v < slots.min[c][tid]) {
      slots.min[c][tid] = v;
      slots.min_pos[c][tid] = position;
    }
    if (v > slots.max[c][tid]) {
      slots.max[c][tid] = v;
      slots.max_pos[c][tid] = position;
    }
  }

  // A head or tail sample: every one is examined, its sums go straight to the 64-bit ones.
  __device__ __forceinline__ void sample(int c, T value, unsigned long long position) {
    const unsigned v = value;
#pragma unroll
    for (int cc = 0; cc < C; ++cc)
      if (cc == c) {
        record(cc, static_cast<int>(v), position);
        slots.sum[cc][tid] += v;
        slots.sum_sq[cc][tid] += v * v;
      }
  }

  // The thresholds from the warp's records, for words of this phase. All lanes call it.
  template <int Phase>
  __device__ __forceinline__ void rebuild() {
    int tmin[C], tmax[C];
#pragma unroll
    for (int c = 0; c < C; ++c) {
      tmin[c] = min(warp_min_int(slots.min[c][tid]), 256);  // no minimum yet (INT_MAX): every sample is below 256
      tmax[c] = warp_max_int(slots.max[c][tid]);            // no maximum yet: -1
    }
    bounds.template set<Phase>(tmin, tmax);
  }

  // The lane sums into the 64-bit sums (a lane's channel depends on the phase).
  template <int Phase>
  __device__ __forceinline__ void widen() {
    unsigned cs[C], cq[C];
    sums.template to_channels<Phase>(cs, cq);
    sums.clear();
#pragma unroll
    for (int c = 0; c < C; ++c) {
      slots.sum[c][tid] += cs[c];
      slots.sum_sq[c][tid] += cq[c];
    }
    steps = 0;
  }

  template <int Phase>
  __device__ __forceinline__ void begin_segment() {
    rebuild<Phase>();
  }

  template <int Phase>
  __device__ __forceinline__ void end_segment() {
    widen<Phase>();
  }

  template <int Phase, bool kFull>
  __device__ __forceinline__ void step(const int4 (&d)[Shape::kGroups][Shape::kChunks], const StepInfo& info) {
    unsigned flags[Shape::kGroups];  // per group: a lane's bit 8 clear = some sample beat a threshold
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
    bool tripped = false;
#pragma unroll
    for (int k = 0; k < Shape::kGroups; ++k) tripped |= (flags[k] & kLaneBit) != kLaneBit;
    if (__any_sync(0xffffffffu, tripped)) {
      if (tripped) {
#pragma unroll
        for (int k = 0; k < Shape::kGroups; ++k)
          if ((flags[k] & kLaneBit) != kLaneBit) replay_group<Phase>(d[k], info, k);
      }
      rebuild<Phase>();
    }
    if (++steps == kWidenSteps) widen<Phase>();
  }

  // Group k holds a sample beating the warp's threshold: its samples in order, against
  // this lane's records.
  template <int Phase>
  __device__ __forceinline__ void replay_group(const int4 (&group)[Shape::kChunks], const StepInfo& info, int k) {
    // The group starts on channel Phase, so sample s is pixel pixel0 + (Phase + s) / C.
    const long long e0 = info.head + info.group(k) * Shape::kGroupSamples;
    const unsigned long long pixel0 = info.pixel_base + static_cast<unsigned long long>((e0 - Phase) / C);
#pragma unroll
    for (int g = 0; g < Shape::kChunks; ++g) {
      for_each_chunk_sample<T>(group[g], [&](int j, T sample) {
        const int s = g * 16 + j;
        record((Phase + s) % C, static_cast<int>(sample), pixel0 + static_cast<unsigned>((Phase + s) / C));
      });
    }
  }
};

}  // namespace gpufilter::kernels
