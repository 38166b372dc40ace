#pragma once
// Walks an image as segments of channel samples with 16-byte loads, for the packed
// stats kernel and the lane-private histogram.
//
// Segments: the whole image when its rows are contiguous (pitch == row bytes, as in
// most whole images), walked by the whole grid; else one segment per row, each walked
// by one warp (a block per row leaves most threads idle on short rows: an 8K gray row
// is 480 chunks, under two per thread of a 256-thread block).
//
// A segment is a head (samples before its first 16-byte boundary), a body of groups of
// 16-byte chunks and a tail. A group is one chunk, or three for three-channel images:
// 48 bytes (the lcm of 3 and 16) hold whole pixels, so every group of a segment starts
// on the same channel (the segment's phase) and the visitor's channel indices are
// compile-time constants. Each thread visits its samples in increasing position (head,
// its groups in order, tail), which the first-occurrence rule of stats relies on.
//
// The visitor provides:
//   sample(int c, T value, unsigned long long position)    one head or tail sample
//   begin_segment<Phase>()                                  before a segment's body
//   step<Phase, kFull>(const int4 (&d)[kGroups][kChunks], const StepInfo&)
//     up to kGroups groups loaded together; with kFull false, only those with
//     info.valid(k) hold data (possibly none)
//   end_segment<Phase>()                                    after a segment's body
// The 32 lanes of a warp call begin_segment, step and end_segment together, the same
// number of times (the step loop runs while any lane of the warp has groups left), so
// visitors may use warp-wide intrinsics there.
//
// Walks with kBlockStages (sm_90 and later, whole images only) load the body in block
// stages instead: stage j of block b is the (j * gridDim.x + b)-th run of K groups per
// thread, copied into the block's shared ring by one bulk copy (bulk_copy.cuh); thread t
// visits groups t, t + blockDim.x, ... of the stage, so its positions still increase.
#include <cstdint>
#include <type_traits>

#include "reduction/async_copy.cuh"
#include "reduction/bulk_copy.cuh"
#include "reduction/chunk_samples.cuh"
#include "reduction/reduction_tuning.hpp"

namespace gpufilter::kernels {

struct Segments {
  const unsigned char* base = nullptr;
  std::size_t pitch = 0;   // bytes from one segment to the next
  long long samples = 0;   // channel samples per segment
  long long count = 0;     // segments
  long long pixels = 0;    // pixels per segment (positions: segment * pixels + sample / C)
  bool whole = false;      // one segment holding the whole image, walked by the grid
};

// The threads that walk one segment: all of the grid (whole images) or one warp.
struct Team {
  long long first_segment, segment_step;
  long long lane, lanes;
};

__device__ __forceinline__ Team make_team(const Segments& s) {
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  if (s.whole) return Team{0, 1, thread, threads};
  return Team{thread / 32, threads / 32, thread % 32, 32};
}

// Steps: a walk shape of reduction_tuning.hpp (groups per step by channel count, steps
// loaded ahead); SegmentWalk for packed stats and the histogram.
template <class T, int C, class Steps = SegmentWalk>
struct WalkShape {
  static constexpr int kPerChunk = 16 / static_cast<int>(sizeof(T));
  static constexpr int kChunks = C == 3 ? 3 : 1;  // chunks per group
  static constexpr int kGroupSamples = kChunks * kPerChunk;
  static constexpr int kGroups = C == 1 ? Steps::kGroups1 : C == 3 ? Steps::kGroups3 : Steps::kGroups4;
  static constexpr int kPrefetch = Steps::kPrefetch;
  static constexpr bool kSharedRing = Steps::kSharedRing;
  static constexpr bool kBlockStages = Steps::kBlockStages;  // whole images in block stages (sm_90+)
  // int4 of a warp's shared ring: kPrefetch + 1 steps of 32 lanes' groups.
  static constexpr int kRingPerWarp = kSharedRing ? (kPrefetch + 1) * kGroups * kChunks * 32 : 0;
  static_assert(kGroups >= 1 && kPrefetch >= 0, "a step loads at least one group");
};

// Where the groups of one step lie: group first + k * stride, k < kGroups.
struct StepInfo {
  long long first, stride, groups;  // groups: in the segment's body
  long long head;                   // sample index of the body's first sample
  unsigned long long pixel_base;    // position of the segment's first pixel
  __device__ __forceinline__ bool valid(int k) const { return first + k * stride < groups; }
  __device__ __forceinline__ long long group(int k) const { return first + k * stride; }
};

template <int C, class F>
__device__ __forceinline__ void with_phase(int phase, F&& f) {
  if constexpr (C == 1) {
    f(std::integral_constant<int, 0>{});
  } else {
    switch (phase) {
      case 0: f(std::integral_constant<int, 0>{}); break;
      case 1: f(std::integral_constant<int, 1 % C>{}); break;
      case 2: f(std::integral_constant<int, 2 % C>{}); break;
      default: f(std::integral_constant<int, 3 % C>{}); break;
    }
  }
}

// Whether every lane of the warp whose lane 0 is at `base` has all K groups of the step.
template <int K>
__device__ __forceinline__ bool full_step(long long base, long long lanes, long long groups) {
  return base + 31 + (K - 1) * lanes < groups;
}

// The groups of the warp's step at `base` (zeros where a lane has none, nothing loaded).
template <int K, int G>
__device__ __forceinline__ void load_step(const int4* body, long long base, long long warp_lane, long long lanes,
                                          long long groups, int4 (&d)[K][G]) {
  const long long first = base + warp_lane;
  if (full_step<K>(base, lanes, groups)) {
#pragma unroll
    for (int k = 0; k < K; ++k)
#pragma unroll
      for (int g = 0; g < G; ++g) d[k][g] = __ldg(body + (first + k * lanes) * G + g);
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k)
#pragma unroll
      for (int g = 0; g < G; ++g)
        d[k][g] = first + k * lanes < groups ? __ldg(body + (first + k * lanes) * G + g) : int4{0, 0, 0, 0};
  }
}

template <class T, int C, class Steps, int Phase, class Visitor>
__device__ __forceinline__ void walk_body(const T* r, long long head, long long groups, unsigned long long pixel_base,
                                          const Team& team, Visitor& v, int4* ring) {
  using S = WalkShape<T, C, Steps>;
  constexpr int K = S::kGroups;
  constexpr int G = S::kChunks;
  constexpr int D = S::kPrefetch;
  v.template begin_segment<Phase>();
  const int4* body = reinterpret_cast<const int4*>(r + head);
  const long long step = team.lanes * K;
  // Teams are whole warps (team.lanes is a multiple of 32, lanes of a warp adjacent):
  // `base` is the warp's lane 0, so every lane of the warp makes the same decisions.
  const long long warp_lane = team.lane % 32;
  if constexpr (S::kSharedRing) {
    // The warp's ring in shared memory, filled by asynchronous copies D steps ahead;
    // lane l's chunk (stage, k, g) at ((stage * K + k) * G + g) * 32 + l: a warp's
    // 16-byte accesses cover consecutive words, no bank conflict. Each lane reads only
    // what it copied itself, so waiting for its own copies is enough (no barrier).
    constexpr int R = D + 1;
    int4* mine = ring + (threadIdx.x / 32) * S::kRingPerWarp + static_cast<int>(warp_lane);
    const auto issue = [&](long long b, int stage) {
      const long long first = b + warp_lane;
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (first + k * team.lanes < groups) {
#pragma unroll
          for (int g = 0; g < G; ++g)
            copy16_async(mine + ((stage * K + k) * G + g) * 32, body + (first + k * team.lanes) * G + g);
        }
      commit_async_copies();  // one group per step, empty or not: the wait counts steps
    };
    const long long base0 = team.lane - warp_lane;
#pragma unroll
    for (int i = 0; i < D; ++i) issue(base0 + i * step, i);
    int stage = 0;
    for (long long base = base0; base < groups; base += step) {
      issue(base + D * step, stage == 0 ? R - 1 : stage - 1);  // the stage read one step ago
      wait_async_copies<D>();                                  // this step's copies are done
      const StepInfo info{base + warp_lane, team.lanes, groups, head, pixel_base};
      int4 d[K][G];
#pragma unroll
      for (int k = 0; k < K; ++k)
#pragma unroll
        for (int g = 0; g < G; ++g)
          d[k][g] = info.valid(k) ? mine[((stage * K + k) * G + g) * 32] : int4{0, 0, 0, 0};
      if (full_step<K>(base, team.lanes, groups))
        v.template step<Phase, true>(d, info);
      else
        v.template step<Phase, false>(d, info);
      stage = stage == R - 1 ? 0 : stage + 1;
    }
    wait_async_copies<0>();  // (only empty groups are left) before the next segment reuses the ring
  } else if constexpr (D == 0) {
    for (long long base = team.lane - warp_lane; base < groups; base += step) {
      const StepInfo info{base + warp_lane, team.lanes, groups, head, pixel_base};
      int4 d[K][G];
      load_step(body, base, warp_lane, team.lanes, groups, d);
      if (full_step<K>(base, team.lanes, groups))
        v.template step<Phase, true>(d, info);
      else
        v.template step<Phase, false>(d, info);
    }
  } else {
    // Software pipeline: ahead[i] holds the step i steps ahead of the one visited. The
    // loads of step s + D are issued before step s's arithmetic, so a thread always has
    // loads in flight; the steps are still visited in order (the first-occurrence rule).
    int4 ahead[D + 1][K][G];
    const long long base0 = team.lane - warp_lane;
#pragma unroll
    for (int i = 0; i < D; ++i) load_step(body, base0 + i * step, warp_lane, team.lanes, groups, ahead[i]);
    for (long long base = base0; base < groups; base += step) {
      load_step(body, base + D * step, warp_lane, team.lanes, groups, ahead[D]);
      const StepInfo info{base + warp_lane, team.lanes, groups, head, pixel_base};
      if (full_step<K>(base, team.lanes, groups))
        v.template step<Phase, true>(ahead[0], info);
      else
        v.template step<Phase, false>(ahead[0], info);
#pragma unroll
      for (int i = 0; i < D; ++i)
#pragma unroll
        for (int k = 0; k < K; ++k)
#pragma unroll
          for (int g = 0; g < G; ++g) ahead[i][k][g] = ahead[i + 1][k][g];
    }
  }
  v.template end_segment<Phase>();
}

#ifdef GPUFILTER_BULK_COPIES
// The body of a whole image in block stages: a ring of kPrefetch + 1 stages of K groups
// per thread (the same bytes as the warps' rings of kSharedRing), each filled by one bulk
// copy. Once the block is done with a stage (a barrier), one thread starts the copy of
// the stage kPrefetch + 1 ahead into its slot.
template <class T, int C, class Steps, int Phase, class Visitor>
__device__ __forceinline__ void walk_stages(const T* r, long long head, long long groups,
                                            unsigned long long pixel_base, Visitor& v, int4* ring) {
  using S = WalkShape<T, C, Steps>;
  constexpr int K = S::kGroups;
  constexpr int G = S::kChunks;
  constexpr int R = S::kPrefetch + 1;
  __shared__ unsigned long long landed[R];  // a slot's barrier: its stage's bytes have landed
  const int threads = static_cast<int>(blockDim.x);
  const int tid = static_cast<int>(threadIdx.x);
  const long long stage_groups = static_cast<long long>(K) * threads;
  const long long stages = (groups + stage_groups - 1) / stage_groups;
  const int stage_int4 = K * G * threads;
  const int4* body = reinterpret_cast<const int4*>(r + head);
  const auto stage_of = [&](long long j) { return j * gridDim.x + blockIdx.x; };
  const auto start_copy = [&](long long j, int slot) {
    const long long stage = stage_of(j);
    if (stage >= stages) return;
    const long long first = stage * stage_groups;
    const long long n = groups - first < stage_groups ? groups - first : stage_groups;
    bulk_copy_to_shared(ring + slot * stage_int4, body + first * G, static_cast<unsigned>(n * G * 16), &landed[slot]);
  };
  v.template begin_segment<Phase>();
  if (tid == 0) {
#pragma unroll
    for (int i = 0; i < R; ++i) {
      init_copy_barrier(&landed[i]);
    }
    fence_copy_barrier_init();
  }
  __syncthreads();
  if (tid == 0) {
    for (int i = 0; i < R; ++i) start_copy(i, i);
  }
  int slot = 0;
  for (long long j = 0; stage_of(j) < stages; ++j) {
    wait_copy_barrier(&landed[slot], static_cast<unsigned>((j / R) & 1));
    const long long first = stage_of(j) * stage_groups;
    const StepInfo info{first + tid, threads, groups, head, pixel_base};
    const int4* stage = ring + slot * stage_int4;
    int4 d[K][G];
#pragma unroll
    for (int k = 0; k < K; ++k)
#pragma unroll
      for (int g = 0; g < G; ++g) d[k][g] = info.valid(k) ? stage[(tid + k * threads) * G + g] : int4{0, 0, 0, 0};
    if (full_step<K>(first + (tid - tid % 32), threads, groups))
      v.template step<Phase, true>(d, info);
    else
      v.template step<Phase, false>(d, info);
    // Every warp's reads of the slot are done before the copy engine refills it. A block
    // barrier rather than a count of finished warps (one atomic a warp, the last one
    // refilling): racecheck sees no order in such a count and reported the refill as a
    // hazard (docs/techniques/reduction.md, "Loads in flight").
    __syncthreads();
    if (tid == 0) start_copy(j + R, slot);
    slot = slot == R - 1 ? 0 : slot + 1;
  }
  v.template end_segment<Phase>();
}
#endif

// ring: the block's shared ring (WalkShape::kRingPerWarp int4 per warp) for walks with
// kSharedRing, else unused.
template <class T, int C, class Visitor, class Steps = SegmentWalk>
__device__ __forceinline__ void walk_segments(const Segments& s, Visitor& v, int4* ring = nullptr) {
  using S = WalkShape<T, C, Steps>;
  const Team team = make_team(s);
  for (long long seg = team.first_segment; seg < s.count; seg += team.segment_step) {
    const unsigned char* bytes = s.base + static_cast<std::size_t>(seg) * s.pitch;
    const T* r = reinterpret_cast<const T*>(bytes);
    // Rows are aligned to sizeof(T) (checked by the op), so the head is whole samples.
    const auto addr = reinterpret_cast<std::uintptr_t>(bytes);
    long long head = static_cast<long long>((16 - addr % 16) % 16) / static_cast<long long>(sizeof(T));
    if (head > s.samples) head = s.samples;
    const long long groups = (s.samples - head) / S::kGroupSamples;
    const long long body_end = head + groups * S::kGroupSamples;
    const unsigned long long pixel_base = static_cast<unsigned long long>(seg) * static_cast<unsigned long long>(s.pixels);
    for (long long e = team.lane; e < head; e += team.lanes)
      v.sample(static_cast<int>(e % C), __ldg(r + e), pixel_base + static_cast<unsigned long long>(e / C));
    with_phase<C>(static_cast<int>(head % C), [&](auto phase) {
#ifdef GPUFILTER_BULK_COPIES
      if constexpr (S::kBlockStages) {
        if (s.whole) {
          walk_stages<T, C, Steps, decltype(phase)::value>(r, head, groups, pixel_base, v, ring);
          return;
        }
      }
#endif
      walk_body<T, C, Steps, decltype(phase)::value>(r, head, groups, pixel_base, team, v, ring);
    });
    for (long long e = body_end + team.lane; e < s.samples; e += team.lanes)
      v.sample(static_cast<int>(e % C), __ldg(r + e), pixel_base + static_cast<unsigned long long>(e / C));
  }
}

// Segments of a view: the whole image where the rows are contiguous.
inline Segments make_segments(const void* data, std::size_t pitch, int width, int height, int channels,
                              std::size_t sample_bytes) {
  Segments s;
  s.base = static_cast<const unsigned char*>(data);
  const std::size_t row_bytes = static_cast<std::size_t>(width) * channels * sample_bytes;
  s.whole = height == 1 || pitch == row_bytes;
  s.pitch = pitch;
  s.samples = static_cast<long long>(width) * channels * (s.whole ? height : 1);
  s.count = s.whole ? 1 : height;
  s.pixels = static_cast<long long>(width) * (s.whole ? height : 1);
  return s;
}

}  // namespace gpufilter::kernels
