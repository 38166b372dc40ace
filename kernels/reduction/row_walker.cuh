#pragma once
// Walks the channel samples of image rows with 16-byte loads (seed 003): each row is an
// unaligned head (before its first 16-byte boundary), a body of aligned 16-byte chunks
// and a tail, so any sub-view at any byte offset works. The threads of a block share a
// row, consecutive threads reading consecutive chunks, kLoadsInFlight chunks each per
// step. Every thread visits its samples in increasing position, which the first-
// occurrence rule of the stats kernels relies on.
//
// visit(c, value, e, y) is called per sample: channel c (a constant once the loops
// unroll, so per-channel accumulators stay in registers), value, sample index e in the
// row (pixel x = e / C) and row y. step_done() is called after every step (the head,
// each round of kLoadsInFlight chunks, the tail): at most 2 + 4 * 16 samples per thread
// between two calls, so a visitor may keep 32-bit partial sums and widen them there.
#include <cstdint>

#include "reduction/chunk_samples.cuh"
#include "reduction/reduction_tuning.hpp"

namespace gpufilter::kernels {

// Calls visit with a compile-time channel for a sample whose channel is known at run time.
template <int C, class T, class Visit>
__device__ __forceinline__ void visit_runtime_channel(int c, T value, long long e, long long y, Visit& visit) {
#pragma unroll
  for (int cc = 0; cc < C; ++cc)
    if (cc == c) visit(cc, value, e, y);
}

// The samples of one 16-byte chunk whose first sample has channel Phase.
template <class T, int C, int Phase, class Visit>
__device__ __forceinline__ void visit_chunk(const int4& chunk, long long e0, long long y, Visit& visit) {
  for_each_chunk_sample<T>(chunk, [&](int j, T sample) { visit((Phase + j) % C, sample, e0 + j, y); });
}

template <class T, int C, class Visit>
__device__ __forceinline__ void visit_chunk_any_phase(const int4& chunk, long long e0, long long y, Visit& visit) {
  if constexpr (C == 1) {
    visit_chunk<T, C, 0>(chunk, e0, y, visit);
  } else {
    switch (static_cast<int>(e0 % C)) {
      case 0: visit_chunk<T, C, 0>(chunk, e0, y, visit); break;
      case 1: visit_chunk<T, C, 1 % C>(chunk, e0, y, visit); break;
      case 2: visit_chunk<T, C, 2 % C>(chunk, e0, y, visit); break;
      default: visit_chunk<T, C, 3 % C>(chunk, e0, y, visit); break;
    }
  }
}

// One row, shared by `lanes` threads of which this is `lane`.
template <class T, int C, class Visit, class StepDone>
__device__ __forceinline__ void walk_row_vec16(const unsigned char* row, int width, long long y, int lane, int lanes,
                                               Visit& visit, StepDone& step_done) {
  constexpr int kPerChunk = 16 / static_cast<int>(sizeof(T));
  constexpr int kLoads = ReductionTuning::kLoadsInFlight;
  const long long samples = static_cast<long long>(width) * C;
  const T* r = reinterpret_cast<const T*>(row);
  // Rows are aligned to sizeof(T) (checked by the op), so the head is whole samples.
  const auto addr = reinterpret_cast<std::uintptr_t>(row);
  long long head = static_cast<long long>((16 - addr % 16) % 16) / static_cast<long long>(sizeof(T));
  if (head > samples) head = samples;
  const long long chunks = (samples - head) / kPerChunk;
  const long long body_end = head + chunks * kPerChunk;

  if (lane < head) visit_runtime_channel<C>(static_cast<int>(lane % C), __ldg(r + lane), lane, y, visit);
  step_done();

  const int4* body = reinterpret_cast<const int4*>(r + head);
  const long long step = static_cast<long long>(lanes) * kLoads;
  for (long long first = lane; first < chunks; first += step) {
    int4 v[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
      const long long i = first + static_cast<long long>(k) * lanes;
      if (i < chunks) v[k] = __ldg(body + i);
    }
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
      const long long i = first + static_cast<long long>(k) * lanes;
      if (i < chunks) visit_chunk_any_phase<T, C>(v[k], head + i * kPerChunk, y, visit);
    }
    step_done();
  }

  const long long t = body_end + lane;
  if (t < samples) visit_runtime_channel<C>(static_cast<int>(t % C), __ldg(r + t), t, y, visit);
  step_done();
}

// Rows blockIdx.x, blockIdx.x + gridDim.x, ... each walked by the whole block.
template <class T, int C, class Visit, class StepDone>
__device__ __forceinline__ void walk_rows_vec16(const unsigned char* base, std::size_t pitch, int width, int height,
                                                Visit& visit, StepDone& step_done) {
  for (long long y = blockIdx.x; y < height; y += gridDim.x)
    walk_row_vec16<T, C>(base + static_cast<std::size_t>(y) * pitch, width, y, static_cast<int>(threadIdx.x),
                         static_cast<int>(blockDim.x), visit, step_done);
}

}  // namespace gpufilter::kernels
