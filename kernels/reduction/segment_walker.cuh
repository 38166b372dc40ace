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
#include <cstdint>
#include <type_traits>

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

template <class T, int C>
struct WalkShape {
  static constexpr int kPerChunk = 16 / static_cast<int>(sizeof(T));
  static constexpr int kChunks = C == 3 ? 3 : 1;  // chunks per group
  static constexpr int kGroupSamples = kChunks * kPerChunk;
  static constexpr int kGroups = C == 3 ? ReductionTuning::kGroupsInFlight3 : ReductionTuning::kGroupsInFlight;
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

template <class T, int C, int Phase, class Visitor>
__device__ __forceinline__ void walk_body(const T* r, long long head, long long groups, unsigned long long pixel_base,
                                          const Team& team, Visitor& v) {
  using S = WalkShape<T, C>;
  constexpr int K = S::kGroups;
  constexpr int G = S::kChunks;
  v.template begin_segment<Phase>();
  const int4* body = reinterpret_cast<const int4*>(r + head);
  const long long step = team.lanes * K;
  // Teams are whole warps (team.lanes is a multiple of 32, lanes of a warp adjacent):
  // `base` is the warp's lane 0, so every lane of the warp makes the same decisions.
  const long long warp_lane = team.lane % 32;
  for (long long base = team.lane - warp_lane; base < groups; base += step) {
    const long long first = base + warp_lane;
    const StepInfo info{first, team.lanes, groups, head, pixel_base};
    int4 d[K][G];
    if (base + 31 + (K - 1) * team.lanes < groups) {
#pragma unroll
      for (int k = 0; k < K; ++k)
#pragma unroll
        for (int g = 0; g < G; ++g) d[k][g] = __ldg(body + info.group(k) * G + g);
      v.template step<Phase, true>(d, info);
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k)
#pragma unroll
        for (int g = 0; g < G; ++g) d[k][g] = info.valid(k) ? __ldg(body + info.group(k) * G + g) : int4{0, 0, 0, 0};
      v.template step<Phase, false>(d, info);
    }
  }
  v.template end_segment<Phase>();
}

template <class T, int C, class Visitor>
__device__ __forceinline__ void walk_segments(const Segments& s, Visitor& v) {
  using S = WalkShape<T, C>;
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
    with_phase<C>(static_cast<int>(head % C),
                  [&](auto phase) { walk_body<T, C, decltype(phase)::value>(r, head, groups, pixel_base, team, v); });
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
